import Glibc
import Quoting

/// How a log line reaches its descriptor and what a file name looks like in it (SPEC §4): writing
/// may fail (a full disk, a closed stderr, a full non-blocking pipe), and a line that cannot be
/// written is dropped, never a crash and never a wait; names are escaped, so that a file name can
/// never forge a line or colour a terminal.
public enum LogLine {
    /// Writes `line` to `descriptor` with write(2) (EINTR retried by `systemCall`; a short write
    /// goes on with the rest). EAGAIN, EPIPE, ENOSPC, EBADF or anything else drops what is left.
    /// Gives whether the whole line was written.
    @discardableResult
    public static func write(_ line: String, to descriptor: Int32 = STDERR_FILENO) -> Bool {
        var bytes = Array(line.utf8)
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                try? systemCall("write") { Glibc.write(descriptor, buffer.baseAddress! + done, buffer.count - done) }
            }
            guard let written, written > 0 else { return false }
            done += written
        }
        bytes.removeAll()
        return true
    }

    /// `text` with every control character (C0, DEL, C1) written as \xNN, and
    /// every byte that is not valid UTF-8 too (a file name kept as `FileName` carries them), and cut
    /// to a bounded `Excerpt`: the one escaping for whatever comes from a file name or a file and goes
    /// into a log line. Text escaped once is left as it is by a second escape.
    public static func escaped(_ text: String) -> String {
        Excerpt(escapedWhole(text)).description
    }

    /// `escaped` without the bound: for a whole log line, whose parts from outside are already
    /// escaped excerpts.
    public static func escapedWhole(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = FileName.rawByte(scalar) {
                out += hex(UInt32(byte))
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                out += hex(scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "\\x" + (digits.count < 2 ? "0" + digits : digits)
    }
}
