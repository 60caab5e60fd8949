import CTurboJPEG
import CJPEG
let _turboJPEGVersionCheck = TJSAMP_411
