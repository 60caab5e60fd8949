import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = PNGFuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
