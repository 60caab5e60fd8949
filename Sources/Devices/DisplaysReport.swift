import Config
import DRM
import Linux

/// `vitrine displays` (SPEC §6): every DRM card, what it offers, and which card, connector and
/// mode `run` would take with the settings, and why. `read` looks (changing nothing on screen);
/// `text` is plain text for a person at a terminal, as modetest's dump but shorter.
public struct DisplaysReport {
    public struct Card {
        public var path: String
        /// "virtio_gpu 0.1.0 (virtio GPU)"; nil when the card could not be opened.
        public var driver: String?
        public var inventory: CardInventory?
        /// Why the card could not be opened or read.
        public var problem: String?
    }

    /// What `run` does with these cards and settings.
    public enum Outcome {
        case takes(card: String, choice: ModeSelection.Choice)
        /// It waits for a display (none yet, none connected), for this reason.
        case waits(String)
        /// It stops with this error (a connector or mode the config names that is not there...).
        case stops(String)
    }

    public var directory: String
    /// Why `directory` could not be listed; nil when it was (a missing folder is no cards).
    public var listingProblem: String?
    public var cards: [Card]
    public var settings: Settings.Display
    public var outcome: Outcome

    /// Opens every card to read it, then makes `run`'s choice with `run`'s code.
    public static func read(settings: Settings.Display, directory: String = "/dev/dri") -> DisplaysReport {
        var listingProblem: String?
        var cards: [Card] = []
        do {
            cards = try DRMCard.cardPaths(in: directory).map(readCard)
        } catch {
            listingProblem = FieldAccess.explain(error, path: directory, usualGroup: "video")
        }
        let outcome: Outcome
        do {
            let card = try DisplayOutput.openCard(settings)
            defer { card.close() }
            outcome = .takes(card: card.path, choice: try ModeSelection.choose(on: card, connector: settings.connector,
                                                                                mode: settings.mode))
        } catch let error as DRMError where error.meansNoDisplayYet {
            outcome = .waits("\(error)")
        } catch {
            outcome = .stops(FieldAccess.explain(error, path: settings.card ?? directory, usualGroup: "video"))
        }
        return DisplaysReport(directory: directory, listingProblem: listingProblem, cards: cards, settings: settings,
                              outcome: outcome)
    }

    private static func readCard(_ path: String) -> Card {
        let card: DRMCard
        do {
            card = try DRMCard(path: path)
        } catch {
            return Card(path: path, problem: "cannot open: \(FieldAccess.explain(error, path: path, usualGroup: "video"))")
        }
        defer { card.close() }
        let driver = "\(card.driverName) \(card.driverVersion)\(card.driverDescription.isEmpty ? "" : " (\(card.driverDescription))")"
        do {
            return Card(path: path, driver: driver, inventory: try card.inventory())
        } catch {
            return Card(path: path, driver: driver, problem: "cannot read: \(error)")
        }
    }

    // MARK: - Text

    public var text: String {
        var lines: [String] = []
        if let listingProblem {
            lines.append("cannot list \(directory): \(listingProblem)")
        } else if cards.isEmpty {
            lines.append("no DRM card: \(directory) has no card* nodes (is the GPU's kernel driver loaded?)")
        }
        for card in cards { lines += Self.lines(card) }
        lines += choiceLines()
        return lines.joined(separator: "\n") + "\n"
    }

    static func lines(_ card: Card) -> [String] {
        var lines = ["card \(card.path): " + (card.driver.map { "driver \($0)" } ?? card.problem ?? "")]
        if card.driver != nil, let problem = card.problem { lines.append("  \(problem)") }
        guard let inventory = card.inventory else { return lines }
        for entry in inventory.connectors {
            let c = entry.connector
            var head = "  connector \(c.name) (id \(c.id)): \(c.status.rawValue)"
            if c.widthMillimetres > 0 || c.heightMillimetres > 0 { head += ", \(c.widthMillimetres)x\(c.heightMillimetres) mm" }
            if let name = entry.monitorName { head += ", monitor \"\(LogLine.escaped(name))\"" }
            head += ", encoders \(Self.ids(c.encoderIDs))"
            lines.append(head)
            lines += wrapped(modeList(c.modes), first: "    modes: ", rest: "      ")
            var properties = entry.properties.map { "\($0.name) (id \($0.id)) \($0.value)" }
            if entry.panelOrientation == nil { properties.append("no panel orientation") }
            if !entry.properties.contains(where: { $0.name == "DPMS" }) { properties.append("no DPMS") }
            lines.append("    properties: " + properties.joined(separator: ", "))
        }
        for encoder in inventory.encoders {
            let possible = inventory.crtcs.enumerated()
                .filter { $0.offset < 32 && encoder.possibleCRTCs & (1 << UInt32($0.offset)) != 0 }.map(\.element.id)
            lines.append("  encoder \(encoder.id): can drive CRTC \(ids(possible))\(encoder.currentCRTCID != 0 ? ", on CRTC \(encoder.currentCRTCID)" : "")")
        }
        for crtc in inventory.crtcs {
            lines.append("  CRTC \(crtc.id): " + (crtc.mode.map { "\($0), framebuffer \(crtc.framebufferID)" } ?? "off"))
        }
        for plane in inventory.planes {
            lines.append("  plane \(plane.id) (\(plane.kind)): for CRTC \(ids(plane.possibleCRTCIDs))\(plane.crtcID != 0 ? ", on CRTC \(plane.crtcID)" : ""), formats \(plane.formats.joined(separator: " "))")
        }
        if let problem = inventory.planesError { lines.append("  planes: cannot list: \(problem)") }
        return lines
    }

    func choiceLines() -> [String] {
        switch outcome {
        case .waits(let reason):
            return ["run would wait for a display: \(reason)"]
        case .stops(let error):
            return ["run would stop: \(error)"]
        case .takes(let path, let choice):
            let connector = cards.first { $0.path == path }?.inventory?.connectors.first { $0.connector.id == choice.connector.id }
            let encoder = cards.first { $0.path == path }?.inventory?.encoders.first { $0.id == choice.encoderID }
            let onNow = choice.connector.currentEncoderID == choice.encoderID && encoder?.currentCRTCID == choice.crtcID
            let orientation = connector?.panelOrientation
            let rotation = settings.rotation ?? DisplayOutput.rotation(of: orientation ?? .normal)
            let turned = rotation == .quarter || rotation == .threeQuarters
            let sceneSize = turned ? "\(choice.mode.height)x\(choice.mode.width)" : "\(choice.mode.width)x\(choice.mode.height)"
            return [
                "run would take: card \(path), connector \(choice.connector.name), mode \(choice.mode), CRTC \(choice.crtcID) via encoder \(choice.encoderID)",
                "  card: " + (settings.card.map { "display.card = \($0)" }
                    ?? "the first card with a connected connector, in numeric order (display.card = auto)"),
                "  connector: " + (settings.connector.map { "display.connector = \($0)" }
                    ?? "the first connected one (display.connector = auto)"),
                "  mode: " + (settings.mode.map { "display.mode = \($0)\(choice.mode.isPreferred ? ", the preferred mode" : "")" }
                    ?? (choice.mode.isPreferred ? "the connector's preferred mode (display.mode = auto)"
                        : "the first one listed, none is marked preferred (display.mode = auto)")),
                "  CRTC: " + (onNow ? "the one the connector is on now" : "the first free one its encoders can drive"),
                "  rotation: \(rotation.rawValue)° " + (settings.rotation != nil ? "(display.rotation)"
                    : "from the panel orientation, \(orientation?.rawValue ?? "absent: normal") (display.rotation = auto)")
                    + "; the scene is \(sceneSize)",
            ]
        }
    }

    /// "1280x800@60 (preferred), 1024x768@60, ...", each mode once.
    static func modeList(_ modes: [DisplayMode]) -> [String] {
        guard !modes.isEmpty else { return ["none"] }
        var seen = Set<String>()
        return modes.compactMap { mode in
            seen.insert(mode.description).inserted ? "\(mode)\(mode.isPreferred ? " (preferred)" : "")" : nil
        }
    }

    /// Items joined by ", " in lines of at most about 100 characters.
    static func wrapped(_ items: [String], first: String, rest: String, width: Int = 100) -> [String] {
        var lines: [String] = []
        var line = first
        for (index, item) in items.enumerated() {
            let piece = item + (index < items.count - 1 ? "," : "")
            if line != first && line != rest && line.count + 1 + piece.count > width {
                lines.append(line)
                line = rest
            }
            line += (line == first || line == rest ? "" : " ") + piece
        }
        lines.append(line)
        return lines
    }

    static func ids(_ ids: [UInt32]) -> String {
        ids.isEmpty ? "none" : ids.map(String.init).joined(separator: ", ")
    }
}
