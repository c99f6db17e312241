
^	/host:CPU workerË"Ùåz¿ç∑""hipLaunchKernel*correlation_id
ú/device:GPU:0)	Stream #2Ë"ÄõÓ«Œ[""8"	k*correlation_id*kernel_details*# grid:11,16,2 block:256,1,1