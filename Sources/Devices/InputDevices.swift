import Config
import Evdev
import Geometry
import Glibc
import Linux
import Logging
import SystemPackage
import Touch

/// The touch panels (and keyboards, for Esc/Back) `run` reads: found by capability under
/// /dev/input or named by `input.device`, opened as they appear (inotify), closed and forgotten
/// when they vanish. Each one's events go through its own TouchDecoder, exactly as in `simulate`.
public final class InputDevices {
    private struct Source {
        let device: EvdevDevice
        var decoder: TouchDecoder?
        /// A mouse: one pointer, pressed while its left button is.
        var mouse: RelativePointerDecoder?
    }

    private let settings: Settings.Input
    private let screen: Size
    private let displayRotation: Settings.Rotation
    private let loop: EventLoop
    private let logger: Logger
    private let onTouch: (TouchFrame) -> Void
    private let onBack: (Double) -> Void
    private var sources: [String: Source] = [:]
    private var inotify: Inotify?
    private let directory = "/dev/input"

    public init(settings: Settings.Input, screen: Size, displayRotation: Settings.Rotation, loop: EventLoop, logger: Logger,
         onTouch: @escaping (TouchFrame) -> Void, onBack: @escaping (Double) -> Void) {
        self.settings = settings
        self.screen = screen
        self.displayRotation = displayRotation
        self.loop = loop
        self.logger = logger
        self.onTouch = onTouch
        self.onBack = onBack
    }

    deinit { closeAll() }

    public var touchDeviceCount: Int { sources.values.filter { $0.decoder != nil }.count }

    /// The devices in use, for `/status`: "/dev/input/event3: touch \"ILITEK Multi-Touch\"".
    public var descriptions: [String] {
        sources.sorted { $0.key < $1.key }.map { path, source in
            let kind = source.decoder != nil ? "touch" : source.mouse != nil ? "mouse" : "keys"
            return "\(path): \(kind) \"\(source.device.description.name)\""
        }
    }

    /// Opens what is there now and watches for more.
    public func start() {
        do {
            let inotify = try Inotify()
            self.inotify = inotify
            try inotify.watch(directory, mask: Inotify.created | Inotify.attributes)
            try loop.watch(inotify.fileDescriptor) { [weak self] in self?.directoryChanged() }
        } catch {
            inotify?.close()
            inotify = nil
            logger.warning("cannot watch \(directory) for new input devices: \(error)")
        }
        if let path = settings.device {
            open(path, explicit: true)
        } else {
            for path in eventNodes() { open(path, explicit: false) }
        }
        if touchDeviceCount == 0 {
            logger.warning("no touch screen found yet\(settings.device.map { " (input.device = \($0))" } ?? " in \(directory)"); waiting for one to appear")
        }
    }

    public func closeAll() {
        for (path, _) in sources { close(path) }
        if let inotify {
            loop.unwatch(inotify.fileDescriptor)
            inotify.close()
        }
        inotify = nil
    }

    /// /dev/input/event* in numeric order; none while /dev/input does not exist.
    private func eventNodes() -> [String] {
        do {
            return try FileName.numberedNodes(in: directory, prefix: "event")
        } catch {
            logger.error("cannot list input devices: \(error)")
            return []
        }
    }

    private func directoryChanged() {
        guard let inotify else { return }
        for event in inotify.read() where event.name.hasPrefix("event") {
            let path = directory + "/" + event.name
            guard sources[path] == nil else { continue }
            if let wanted = settings.device, wanted != path { continue }
            // udev sets the group and mode just after creating the node (IN_ATTRIB): try again then.
            open(path, explicit: settings.device != nil, quietly: true)
        }
    }

    private func open(_ path: String, explicit: Bool, quietly: Bool = false) {
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: path)
        } catch let error as SystemError {
            if quietly { return }
            if error.errno == .permissionDenied {
                logger.error("cannot open \(path): permission denied; add the service user to group input")
            } else if explicit {
                logger.error("cannot open input.device \(path): \(error)")
            }
            return
        } catch {
            return
        }
        let description = device.description
        var role = InputRole(description, named: explicit)
        var decoder: TouchDecoder?
        if case .touch = role {
            do {
                let transform = try TouchMapping.transform(for: description, screen: screen, input: settings,
                                                           displayRotation: displayRotation)
                decoder = try TouchDecoder(device: description, transform: transform)
            } catch {
                logger.error("cannot use \(path) (\(description.name)) for touch: \(error)")
                role = InputRole(description, named: explicit, touchUnusable: true)
            }
        } else if explicit {
            logger.error("input.device \(path) (\(description.name)) is not a touch screen: \(description.classification)")
        }
        let mouse = role == .mouse ? RelativePointerDecoder(screen: screen) : nil
        if case .ignored = role {
            device.close()
            return
        }
        do {
            try device.useMonotonicClock()
            if decoder != nil && settings.grab { try device.grab() }
            try loop.watch(device.fileDescriptor) { [weak self] in self?.readable(path) }
        } catch {
            logger.error("cannot set up \(path) (\(description.name)): \(error)")
            device.close()
            return
        }
        sources[path] = Source(device: device, decoder: decoder, mouse: mouse)
        if mouse != nil {
            logger.info("mouse: \(path) \"\(description.name)\" (one pointer: the left button touches)")
        } else if let decoder {
            let axes = description.positionAxes.flatMap { description.axes[$0.x] }.map { "x \($0.minimum)...\($0.maximum)" } ?? ""
            let yAxis = description.positionAxes.flatMap { description.axes[$0.y] }.map { "y \($0.minimum)...\($0.maximum)" } ?? ""
            logger.info("touch: \(path) \"\(description.name)\" \(decoder.touchProtocol), \(axes), \(yAxis)\(settings.grab ? ", grabbed" : "")")
        } else {
            logger.info("keys: \(path) \"\(description.name)\" (Esc/Back close the photo)")
        }
    }

    private func close(_ path: String) {
        guard let source = sources.removeValue(forKey: path) else { return }
        loop.unwatch(source.device.fileDescriptor)
        source.device.close()
    }

    private func readable(_ path: String) {
        guard var source = sources[path] else { return }
        let events: [InputEvent]
        do {
            events = try source.device.readEvents()
        } catch let error as SystemError where error.errno == .operationNotSupportedByDevice {
            logger.notice("input device \(path) went away")
            if var decoder = source.decoder, let lift = decoder.reset(time: MonotonicClock.now()) { onTouch(lift) }
            if source.mouse != nil { onTouch(TouchFrame(time: MonotonicClock.now(), contacts: [])) }
            close(path)
            return
        } catch {
            logger.warning("reading \(path): \(error); closing it")
            close(path)
            return
        }
        for event in events {
            if event.type == EventType.key, event.value == 1, event.code == KeyCode.esc || event.code == KeyCode.back {
                onBack(event.time)
                continue
            }
            if var mouse = source.mouse {
                if let frame = mouse.feed(event) { onTouch(frame) }
                source.mouse = mouse
                continue
            }
            guard var decoder = source.decoder else { continue }
            if let frame = decoder.feed(event) { onTouch(frame) }
            if decoder.needsResynchronisation, let frame = resynchronise(source.device, &decoder, time: event.time) {
                onTouch(frame)
            }
            source.decoder = decoder
        }
        sources[path] = source
    }

    /// After SYN_DROPPED: read the device's state back and hand it to the decoder.
    private func resynchronise(_ device: EvdevDevice, _ decoder: inout TouchDecoder, time: Double) -> TouchFrame? {
        logger.notice("\(device.path): events dropped (SYN_DROPPED: the loop fell behind); reading the touch state back")
        do {
            let state = try DeviceStateReader.read(device, protocol: decoder.touchProtocol)
            return decoder.resynchronise(to: state, time: time)
        } catch {
            logger.warning("cannot resynchronise \(device.path) after dropped events: \(error)")
            return decoder.reset(time: time)
        }
    }
}
