import RemoteControl
import RemoteHTTP
import Testing

@Suite struct MetricsTextTests {
    private func snapshot() -> RemoteSnapshot {
        var snapshot = RemoteSnapshot(version: "1.2.3")
        snapshot.state = .showing
        snapshot.photoCount = 6
        snapshot.framesDrawn = 120
        snapshot.framesDropped = 2
        snapshot.frameTimeBuckets = [(0.001, 3), (0.004, 100), (.infinity, 120)]
        snapshot.frameTimeSum = 0.25
        snapshot.touchLatencyBuckets = [(0.0167, 40), (0.0333, 59), (.infinity, 60)]
        snapshot.touchLatencySum = 0.75
        snapshot.photosSkipped = [("empty", 1), ("not_jpeg", 0)]
        snapshot.decodedBytes = 8_294_400
        snapshot.display = .init(connector: "HDMI-A-1", mode: "1920x1080@60", connected: true)
        snapshot.screenOn = true
        snapshot.touches = 4
        snapshot.clipFramesShown = 300
        snapshot.clipFramesDropped = 7
        snapshot.uptime = 12.5
        return snapshot
    }

    @Test func everyMetricHasHelpTypeAndItsSamples() {
        let text = MetricsText.render(snapshot())
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("vitrine_build_info{version=\"1.2.3\"} 1"))
        #expect(lines.contains("vitrine_frames_total 120"))
        #expect(lines.contains("vitrine_frames_dropped_total 2"))
        #expect(lines.contains("vitrine_photos 6"))
        #expect(lines.contains("vitrine_photos_skipped{reason=\"empty\"} 1"))
        #expect(lines.contains("vitrine_photos_skipped{reason=\"not_jpeg\"} 0"))
        #expect(lines.contains("vitrine_decoded_bytes 8294400"))
        #expect(lines.contains("vitrine_display_connected 1"))
        #expect(lines.contains("vitrine_screen_on 1"))
        #expect(lines.contains("vitrine_touches_total 4"))
        #expect(lines.contains("vitrine_clip_frames_total 300"))
        #expect(lines.contains("vitrine_clip_frames_dropped_total 7"))
        #expect(lines.contains("# TYPE vitrine_clip_frames_dropped_total counter"))
        #expect(lines.contains("vitrine_uptime_seconds 12.5"))
        #expect(lines.contains("vitrine_state{state=\"showing\"} 1"))
        #expect(lines.contains("vitrine_state{state=\"waiting_for_display\"} 0"))
        // The histogram: cumulative buckets, +Inf spelt Prometheus' way, count equal to it.
        #expect(lines.contains("# TYPE vitrine_frame_seconds histogram"))
        #expect(lines.contains("vitrine_frame_seconds_bucket{le=\"0.001\"} 3"))
        #expect(lines.contains("vitrine_frame_seconds_bucket{le=\"+Inf\"} 120"))
        #expect(lines.contains("vitrine_frame_seconds_sum 0.25"))
        #expect(lines.contains("vitrine_frame_seconds_count 120"))
        // SPEC §13's latency, the same way.
        #expect(lines.contains("# TYPE vitrine_touch_to_flip_seconds histogram"))
        #expect(lines.contains("vitrine_touch_to_flip_seconds_bucket{le=\"0.0167\"} 40"))
        #expect(lines.contains("vitrine_touch_to_flip_seconds_bucket{le=\"+Inf\"} 60"))
        #expect(lines.contains("vitrine_touch_to_flip_seconds_sum 0.75"))
        #expect(lines.contains("vitrine_touch_to_flip_seconds_count 60"))
        // Each family: HELP, then TYPE, then only its own samples.
        var family: String?
        for line in lines {
            if line.hasPrefix("# HELP ") {
                family = String(line.dropFirst(7).prefix { $0 != " " })
            } else if line.hasPrefix("# TYPE ") {
                #expect(line.dropFirst(7).hasPrefix(family! + " "), "\(line)")
            } else {
                #expect(line.hasPrefix(family!), "\(line) outside \(family!)")
            }
        }
        #expect(text.hasSuffix("\n"))
    }

    @Test func waitingForADisplayShowsNoScreen() {
        var waiting = RemoteSnapshot(version: "1")
        waiting.state = .waitingForDisplay
        let lines = MetricsText.render(waiting).split(separator: "\n").map(String.init)
        #expect(lines.contains("vitrine_state{state=\"waiting_for_display\"} 1"))
        #expect(lines.contains("vitrine_display_connected 0"))
        #expect(lines.contains("vitrine_screen_on 0"))
        // No frame, no touch: the histograms still have their +Inf bucket, as Prometheus requires.
        #expect(lines.contains("vitrine_touch_to_flip_seconds_bucket{le=\"+Inf\"} 0"))
        #expect(lines.contains("vitrine_touch_to_flip_seconds_count 0"))
        #expect(lines.contains("vitrine_frames_total 0"))
    }

    @Test func labelValuesAreEscaped() {
        var odd = RemoteSnapshot(version: "a\"b\\c\nd")
        odd.state = .showing
        #expect(MetricsText.render(odd).contains("vitrine_build_info{version=\"a\\\"b\\\\c\\nd\"} 1\n"))
    }
}
