import CZlib
let _zlibCheck = Z_OK
