// A hand-written file: comments, odd spacing, an implicit module, prefixed func ops,
// multi-group results and forward references inside a graph-like region.
#attr   =   {note = "keep // this", n = 1 : i64}   // trailing comment

func.func public @odd_spacing( %a :i32 , %b:   tensor< 4 x f32 >  {test.tag} )->( i32 ){
  // results bound in two groups are merged into one group on the op
  %x, %y:2 = "test.three"(%a) : (i32) -> (i32, i32, i32)
  %z = "test.sum"(%x,%y#0 , %y#1)   {  k = [1,
        2, 3] ,  attr = #attr  }   :  (i32, i32, i32) -> i32   // end of op
  "test.graph"() ({
    ^entry:
      "test.use"(%later) : (i32) -> ()   // forward reference, defined below
      %later = "test.def"() : () -> i32
  }) : () -> ()
  %r = func.call @"helper"(%z) : (i32) -> i32
  func.return %r : i32
}

func.func private @helper(i32) -> i32 // a declaration
