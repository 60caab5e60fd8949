import Clips
import Testing

@Suite struct ClipInfoTests {
    private func clip(duration: Double, rotation: Int = 0) -> ClipInfo {
        ClipInfo(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "h264", storedWidth: 1920, storedHeight: 1080,
                 rotation: rotation, duration: duration, frameRate: 30)
    }

    @Test func durationLabelIsWholeSecondsAsPhotosShowsIt() {
        #expect(clip(duration: 12.9).durationLabel == "0:12")
        #expect(clip(duration: 65).durationLabel == "1:05")
        #expect(clip(duration: 3723.5).durationLabel == "1:02:03")
        #expect(clip(duration: 0.4).durationLabel == "0:01")
        #expect(clip(duration: .infinity).durationLabel == "0:01")
        #expect(clip(duration: 1e300).durationLabel == "99:59:59")
    }

    @Test func aQuarterTurnSwapsTheDisplayedSize() {
        #expect(clip(duration: 1, rotation: 90).displayWidth == 1080)
        #expect(clip(duration: 1, rotation: 90).displayHeight == 1920)
        #expect(clip(duration: 1, rotation: 180).displayWidth == 1920)
    }
}
