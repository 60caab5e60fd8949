import FuzzTargets
import Glibc
import Text

/// scripts/sanitize's program: reads file paths, one a line, on standard input and runs each
/// through `SanitizerSweep` (the photo, clip and caption paths), printing the path before and what
/// came of it after, so that a report of AddressSanitizer or Valgrind names the file it was on.
@main
enum Sanitize {
    static func main() {
        setvbuf(stdout, nil, _IOLBF, 0)
        let typesetter = (try? FontSet(pattern: "DejaVu Sans", pixelSize: 13)).map {
            Typesetter(fonts: $0, titleFonts: try? FontSet(pattern: "DejaVu Sans:bold", pixelSize: 13))
        }
        if typesetter == nil { print("no font: the caption path is not typeset") }
        var files = 0
        while let path = readLine(), !path.isEmpty {
            print("== \(path)")
            print("   \(SanitizerSweep.run(path: path, typesetter: typesetter))")
            files += 1
        }
        print("sweep: \(files) files, no memory error")
    }
}
