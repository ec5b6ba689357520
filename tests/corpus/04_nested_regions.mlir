module {
  func.func @nested(%n: index, %init: f32) -> f32 {
    %outer = "loop.for"(%n, %init) ({
    ^bb0(%i: index, %acc: f32):
      %mid = "loop.for"(%n, %acc) ({
      ^bb0(%j: index, %acc2: f32):
        %inner = "loop.for"(%n, %acc2) ({
        ^bb0(%k: index, %acc3: f32):
          %v = "compute.mix"(%i, %j, %k, %acc3, %init) : (index, index, index, f32, f32) -> f32
          "loop.yield"(%v) : (f32) -> ()
        }) : (index, f32) -> f32
        "loop.yield"(%inner) : (f32) -> ()
      }) : (index, f32) -> f32
      "loop.yield"(%mid) : (f32) -> ()
    }) : (index, f32) -> f32
    return %outer : f32
  }
}
