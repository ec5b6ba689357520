#loc = loc("model.py":1:1)
#loc1 = loc("model.py":10:5)
#loc2 = loc(fused[#loc, #loc1])
module {
  func.func @located(%a: i32 loc("model.py":3:14), %b: i32 loc(#loc)) -> i32 {
    %s = "test.add"(%a, %b) : (i32, i32) -> i32 loc(#loc1)
    %t = "test.mul"(%s, %s) : (i32, i32) -> i32 loc("layer"("model.py":12:3))
    %u = "test.region"(%t) ({
    ^bb0(%e: i32 loc(#loc2)):
      "test.yield"(%e) : (i32) -> () loc(callsite("inner"("a.py":1:1) at "outer"("b.py":2:2)))
    }) : (i32) -> i32 loc(unknown)
    return %u : i32 loc(#loc2)
  } loc(#loc)
  func.func private @decl(i32) -> i32 loc("model.py":20:1)
} loc(#loc1)
