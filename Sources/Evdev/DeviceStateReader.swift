import Touch

/// Reads a device's whole current state back from the kernel, for resynchronising a TouchDecoder
/// after SYN_DROPPED (the kernel's evdev documentation's recipe: EVIOCGKEY, EVIOCGABS, EVIOCGMTSLOTS).
public enum DeviceStateReader {
    public static func read(_ device: EvdevDevice, protocol touchProtocol: TouchProtocol) throws -> DeviceState {
        var state = DeviceState()
        state.keysDown = try device.keysDown()
        for code in device.description.axes.keys {
            state.absoluteValues[code] = try device.axis(code).value
        }
        if touchProtocol == .multitouch {
            let ids = try device.slotValues(AbsCode.mtTrackingID)
            let xs = try device.slotValues(AbsCode.mtPositionX)
            let ys = try device.slotValues(AbsCode.mtPositionY)
            let tools = device.description.axes[AbsCode.mtToolType] != nil
                ? try device.slotValues(AbsCode.mtToolType) : [Int32](repeating: MTToolType.finger, count: ids.count)
            state.slots = ids.indices.map { TouchSlot(trackingID: ids[$0], x: xs[$0], y: ys[$0], toolType: tools[$0]) }
        }
        return state
    }
}
