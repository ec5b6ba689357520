stablehlo.constant// schedule¡ftan2 %26, %arg1f32>
 olc(unknstablehlo.constant// schedule-ftan2 %26, %arg1f32>
 olc(unknown)-lehìo2>
 ole7, %arg1 :ax.resuler0town)-lehìo.comple7, %arg1 :ax.resuler0t