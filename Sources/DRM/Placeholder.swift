import CDRM
let _drmCheck = DRM_MODE_PAGE_FLIP_EVENT
