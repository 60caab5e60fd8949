import NIOConcurrencyHelpers
import NIOCore

/// The open connections of each client address, each address at most `limit`: one client cannot
/// take the server's connection slots from the others (SPEC §9: a slow client starves nobody).
/// Counted when a connection is accepted, uncounted when it closes.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts `channel` for its peer's address and true, or false (not counted) when that address
    /// has `limit` connections open already. A channel without an address (it closed at once) is
    /// let through: it holds nothing.
    func admit(_ channel: any Channel) -> Bool {
        guard let address = channel.remoteAddress.map(Self.host) else { return true }
        let admitted = open.withLockedValue { open -> Bool in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
        guard admitted else { return false }
        channel.closeFuture.whenComplete { [open] _ in
            open.withLockedValue { open in
                let left = open[address, default: 1] - 1
                open[address] = left > 0 ? left : nil
            }
        }
        return true
    }

    /// The connections open from `address` (tests).
    func count(_ address: String) -> Int {
        open.withLockedValue { $0[address, default: 0] }
    }

    /// The peer without its port: an IP address, or the socket's path for a Unix socket.
    private static func host(_ address: SocketAddress) -> String {
        address.ipAddress ?? address.pathname ?? "\(address)"
    }
}
