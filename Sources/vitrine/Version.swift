/// Vitrine's version, written here and nowhere else: `vitrine --version` prints it, and
/// scripts/package asks the binary it has just built for it (the Debian package's version).
let vitrineVersion = "0.8.0"
