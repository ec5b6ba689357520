module @symbols {
  func.func @callee(%a: f32, %b: f32) -> f32 {
    %s = "test.add"(%a, %b) : (f32, f32) -> f32
    return %s : f32
  }
  func.func @caller(%x: f32) -> (f32, f32) {
    %r = call @callee(%x, %x) : (f32, f32) -> f32
    %t = call @callee(%r, %x) {test.tag = "second"} : (f32, f32) -> f32
    "test.refs"() {fn = @callee, list = [@callee, @caller], nested = @symbols::@callee, quoted = @"has space"} : () -> ()
    "test.region"() ({
      %u = func.call @callee(%t, %t) : (f32, f32) -> f32
      "test.yield"(%u) : (f32) -> ()
    }) : () -> ()
    return %r, %t : f32, f32
  }
  func.func private @"has space"(f32) -> f32
}
