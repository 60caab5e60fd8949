/// A way into the kiosk from outside: the HTTP server of SPEC §9 today, MQTT (§14) next. A transport
/// runs on threads of its own and meets the run loop only through the `RemoteState` it was started
/// with: it reads `currentSnapshot()`, hands actions to `submit(json:)` and waits on `screenshot`.
/// The run loop knows transports only as this: `RemoteLink` starts them and stops them at exit, so
/// a new one plugs in beside the others without touching the loop.
public protocol ControlTransport: AnyObject {
    /// Stops taking requests and lets those in flight finish (briefly); called once, at exit.
    func stop()
}
