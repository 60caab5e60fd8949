import RemoteControl

/// `GET /metrics`: a snapshot in Prometheus' text exposition format (version 0.0.4), the format
/// every scraper reads. Written by hand: a dozen metrics the run loop already counts, with no
/// registry to keep in step with them.
public enum MetricsText {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public static func render(_ snapshot: RemoteSnapshot) -> String {
        var out = Exposition()
        out.metric("vitrine_build_info", .gauge, "Always 1; the version vitrine was built as is its label.",
                   [(["version": snapshot.version], 1)])
        out.metric("vitrine_uptime_seconds", .gauge, "Seconds since vitrine started.", [([:], (snapshot.uptime * 1000).rounded() / 1000)])
        out.metric("vitrine_state", .gauge,
                   "1 for the state the kiosk is in: starting, waiting_for_display, showing, display_off or closed.",
                   [RemoteSnapshot.State.starting, .waitingForDisplay, .showing, .displayOff, .closed].map {
                       (["state": $0.rawValue], snapshot.state == $0 ? 1 : 0)
                   })
        out.metric("vitrine_display_connected", .gauge,
                   "1 when a display is taken and its connector is plugged in.",
                   [([:], snapshot.display?.connected == true ? 1 : 0)])
        out.metric("vitrine_screen_on", .gauge, "1 when the display shows the kiosk (not blanked, not waiting).",
                   [([:], snapshot.screenOn ? 1 : 0)])
        out.metric("vitrine_frames_total", .counter, "Frames composed and presented since start.",
                   [([:], Double(snapshot.framesDrawn))])
        out.metric("vitrine_frames_dropped_total", .counter,
                   "Refresh periods missed: frames shown one or more vblanks after the one they aimed at.",
                   [([:], Double(snapshot.framesDropped))])
        out.histogram("vitrine_frame_seconds", "Time to compose and present one frame.",
                      buckets: snapshot.frameTimeBuckets, sum: snapshot.frameTimeSum)
        out.histogram("vitrine_touch_to_flip_seconds",
                      "Touch-to-photon latency: from a touch frame that changed the picture (its kernel timestamp) to the completion of the page flip that showed it.",
                      buckets: snapshot.touchLatencyBuckets, sum: snapshot.touchLatencySum)
        out.metric("vitrine_photos", .gauge, "Photos in the folder that can be shown.",
                   [([:], Double(snapshot.photoCount))])
        out.metric("vitrine_photos_shown_total", .counter,
                   "Times a photo was opened or paged to (by touch, slideshow or /control).",
                   [([:], Double(snapshot.photosShown))])
        out.metric("vitrine_photos_skipped", .gauge, "Files the last scan of the folder left out, by reason.",
                   snapshot.photosSkipped.map { (["reason": $0.reason], Double($0.count)) })
        out.metric("vitrine_decoded_bytes", .gauge, "Bytes of decoded pixels held in the memory cache.",
                   [([:], Double(snapshot.decodedBytes))])
        out.metric("vitrine_touches_total", .counter, "Touches (a first finger down) since start.",
                   [([:], Double(snapshot.touches))])
        out.metric("vitrine_clip_frames_total", .counter, "Clip frames shown since start.",
                   [([:], Double(snapshot.clipFramesShown))])
        out.metric("vitrine_clip_frames_dropped_total", .counter,
                   "Clip frames passed over unseen: decoded after the frame after them was due, or faster than the display.",
                   [([:], Double(snapshot.clipFramesDropped))])
        return out.text
    }

    /// A sample value as Prometheus reads it (Go's ParseFloat): integers without a fraction,
    /// "+Inf"/"-Inf"/"NaN" spelt its way.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A label value between double quotes: backslash, quote and newline escaped.
    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    private enum Kind: String { case counter, gauge, histogram }

    private struct Exposition {
        var text = ""

        mutating func metric(_ name: String, _ kind: Kind, _ help: String, _ samples: [([String: String], Double)]) {
            header(name, kind, help)
            for (labels, value) in samples { sample(name, labels, value) }
        }

        mutating func histogram(_ name: String, _ help: String, buckets: [(bound: Double, count: Int)], sum: Double) {
            header(name, .histogram, help)
            // Prometheus wants the +Inf bucket even when nothing was counted.
            let buckets = buckets.isEmpty ? [(bound: Double.infinity, count: 0)] : buckets
            for bucket in buckets { sample(name + "_bucket", ["le": MetricsText.format(bucket.bound)], Double(bucket.count)) }
            sample(name + "_sum", [:], sum)
            sample(name + "_count", [:], Double(buckets.last?.count ?? 0))
        }

        private mutating func header(_ name: String, _ kind: Kind, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n"
        }

        private mutating func sample(_ name: String, _ labels: [String: String], _ value: Double) {
            text += name
            if !labels.isEmpty {
                text += "{" + labels.sorted { $0.key < $1.key }
                    .map { "\($0.key)=\"\(MetricsText.escape($0.value))\"" }.joined(separator: ",") + "}"
            }
            text += " \(MetricsText.format(value))\n"
        }
    }
}
