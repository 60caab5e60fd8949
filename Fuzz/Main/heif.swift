import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = HEIFFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
