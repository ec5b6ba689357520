// MLIR's arith ops in their custom forms, as mlir-opt 22 prints them (neuronrw's own test module;
// tests/ir/ref/syntax_test.cpp checks it like ops.mlir, tests/lit/neuronrw-opt/arith_oracle.test
// against mlir-opt).
module {
  func.func public @main(%arg0: i32, %arg1: i32, %arg2: f32, %arg3: f32, %arg4: tensor<4xf32>, %arg5: tensor<2x3xi64>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %true = arith.constant true
    %false = arith.constant {note = "kept"} false
    %cst = arith.constant dense<1.000000e+00> : tensor<4xf32>
    %cst_0 = arith.constant 2.500000e+00 : f32
    %cst_1 = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
    %0 = arith.addi %arg0, %arg1 : i32
    %1 = arith.subi %0, %arg1 overflow<nsw> : i32
    %2 = arith.muli %1, %arg1 overflow<nsw, nuw> : i32
    %3 = arith.shli %2, %arg1 : i32
    %4 = arith.divui %3, %arg1 : i32
    %5 = arith.divsi %4, %arg1 : i32
    %6 = arith.ceildivui %5, %arg1 : i32
    %7 = arith.ceildivsi %6, %arg1 : i32
    %8 = arith.floordivsi %7, %arg1 : i32
    %9 = arith.remui %8, %arg1 : i32
    %10 = arith.remsi %9, %arg1 : i32
    %11 = arith.andi %10, %arg1 : i32
    %12 = arith.ori %11, %arg1 : i32
    %13 = arith.xori %12, %arg1 : i32
    %14 = arith.shrui %13, %arg1 : i32
    %15 = arith.shrsi %14, %arg1 : i32
    %16 = arith.maxsi %15, %arg1 : i32
    %17 = arith.maxui %16, %arg1 : i32
    %18 = arith.minsi %17, %arg1 : i32
    %19 = arith.minui %18, %arg1 {tag = 1 : i32} : i32
    %20 = arith.addf %arg2, %arg3 : f32
    %21 = arith.subf %20, %arg3 fastmath<fast> : f32
    %22 = arith.mulf %21, %cst_0 fastmath<nnan,ninf> : f32
    %23 = arith.divf %22, %arg3 : f32
    %24 = arith.remf %23, %arg3 : f32
    %25 = arith.maximumf %24, %arg3 : f32
    %26 = arith.minimumf %25, %arg3 : f32
    %27 = arith.maxnumf %26, %arg3 : f32
    %28 = arith.minnumf %27, %arg3 : f32
    %29 = arith.negf %28 fastmath<contract> : f32
    %30 = arith.extui %19 : i32 to i64
    %31 = arith.extsi %19 : i32 to i64
    %32 = arith.extf %29 : f32 to f64
    %33 = arith.trunci %31 overflow<nuw> : i64 to i16
    %34 = arith.truncf %32 to_nearest_even fastmath<fast> : f64 to f16
    %35 = arith.uitofp %arg0 : i32 to f32
    %36 = arith.sitofp %arg0 : i32 to f32
    %37 = arith.fptoui %arg2 : f32 to i32
    %38 = arith.fptosi %arg2 : f32 to i32
    %39 = arith.index_cast %arg0 : i32 to index
    %40 = arith.index_castui %arg0 : i32 to index
    %41 = arith.bitcast %arg0 : i32 to f32
    %42 = arith.addi %arg5, %cst_1 : tensor<2x3xi64>
    %43 = arith.addf %arg4, %cst : tensor<4xf32>
    %44 = arith.subf %43, %cst : tensor<4xf32>
    %45 = arith.truncf %32 fastmath<fast> : f64 to f16
    %cast = tensor.cast %44 : tensor<4xf32> to tensor<?xf32>
    %cast_2 = tensor.cast %cast : tensor<?xf32> to tensor<4xf32>
    return %cast_2 : tensor<4xf32>
  }
}
