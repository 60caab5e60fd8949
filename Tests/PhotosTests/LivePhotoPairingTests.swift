import Clips
import Foundation
import Photos
import Testing

/// SPEC §12: clips are items, and a Live Photo's still and motion are one item at the still's place.
@Suite struct LivePhotoPairingTests {
    static let motion = ClipInfo(container: "mov,mp4,m4a,3gp,3g2,mj2", codec: "hevc", storedWidth: 1920, storedHeight: 1440,
                                 rotation: 90, duration: 2.9, frameRate: 30)
    static let film = ClipInfo(container: "matroska,webm", codec: "vp9", storedWidth: 1280, storedHeight: 720,
                               rotation: 0, duration: 12.4, frameRate: 25)

    static func still(_ name: String, format: String = "JPEG") -> PhotoInfo {
        PhotoInfo(path: "/photos/" + name, fileSize: 1000, modified: Date(timeIntervalSince1970: 0), format: format,
                  storedSize: ImageSize(width: 4032, height: 3024), orientation: .normal)
    }

    static func clip(_ name: String, _ info: ClipInfo = motion) -> PhotoInfo {
        PhotoInfo(path: "/photos/" + name, fileSize: 1000, modified: Date(timeIntervalSince1970: 0), format: "clip",
                  storedSize: ImageSize(width: info.storedWidth, height: info.storedHeight), orientation: .normal, clip: info)
    }

    /// Each item as "name" (still), "name clip" or "name+motion".
    static func described(_ items: [LibraryItem]) -> [String] {
        items.map { item in
            switch item.kind {
            case .still: item.name
            case .clip: item.name + " clip"
            case let .livePhoto(motion): item.name + "+" + motion.name
            }
        }
    }

    @Test func stillsAndClipsBecomeTheirItemsInOrder() {
        let items = LivePhotoPairing.items(from: [Self.still("a.jpg"), Self.clip("b.mp4", Self.film), Self.clip("c.MOV"),
                                                  Self.still("d.png", format: "PNG")])
        #expect(Self.described(items) == ["a.jpg", "b.mp4 clip", "c.MOV clip", "d.png"])
        #expect(items[1].kind == .clip(Self.film))
        #expect(items[1].motion?.path == "/photos/b.mp4" && items[1].motion?.clip == Self.film)
        #expect(items[0].motion == nil)
    }

    @Test func aStillAndAMovWithItsBaseNameAreOneLivePhotoAtTheStillsPlace() {
        // The phone's names, and a copy tool's converted still and lower-cased extension.
        let photos = [Self.still("IMG_0001.JPG"), Self.still("IMG_1234.HEIC", format: "HEIF"), Self.clip("IMG_1234.MOV"),
                      Self.still("IMG_1235.JPG"), Self.clip("IMG_1235.mov"), Self.still("IMG_1236.jpeg")]
        let items = LivePhotoPairing.items(from: photos)
        #expect(Self.described(items) == ["IMG_0001.JPG", "IMG_1234.HEIC+IMG_1234.MOV", "IMG_1235.JPG+IMG_1235.mov",
                                          "IMG_1236.jpeg"])
        #expect(items[1].kind == .livePhoto(motion: photos[2]))
        #expect(items[1].picture == photos[1])
        #expect(items[1].motion?.path == "/photos/IMG_1234.MOV" && items[1].motion?.clip == Self.motion)
    }

    @Test func theLivePhotoTakesItsStillsPlaceWhenTheMotionComesFirst() {
        // Modified order may put the motion before its still.
        let items = LivePhotoPairing.items(from: [Self.clip("IMG_7.MOV"), Self.still("a.jpg"), Self.still("IMG_7.JPG")])
        #expect(Self.described(items) == ["a.jpg", "IMG_7.JPG+IMG_7.MOV"])
    }

    @Test func severalCandidatesPairTheSameWayInAnyOrder() {
        let photos = [Self.still("IMG_1.HEIC", format: "HEIF"), Self.still("IMG_1.JPG"), Self.clip("IMG_1.MOV"),
                      Self.clip("IMG_1.mov"), Self.still("IMG_2.jpeg"), Self.still("IMG_2.JPG"), Self.clip("IMG_2.MOV")]
        let items = LivePhotoPairing.items(from: photos)
        // The HEIF before the JPEG; then the first name in byte order, for the stills and the motions.
        #expect(Self.described(items) == ["IMG_1.HEIC+IMG_1.MOV", "IMG_1.JPG", "IMG_1.mov clip", "IMG_2.jpeg",
                                          "IMG_2.JPG+IMG_2.MOV"])
        let reversed = LivePhotoPairing.items(from: photos.reversed())
        #expect(Self.described(reversed) == ["IMG_2.JPG+IMG_2.MOV", "IMG_2.jpeg", "IMG_1.mov clip", "IMG_1.JPG",
                                             "IMG_1.HEIC+IMG_1.MOV"])
    }

    @Test func onlyAHEIFOrJPEGStillAndAMovWithTheSameBaseNamePair() {
        let photos = [
            Self.still("IMG_3.HEIC", format: "HEIF"), Self.clip("img_3.MOV"),  // the base name's case differs
            Self.still("IMG_4.PNG", format: "PNG"), Self.clip("IMG_4.MOV"),  // a PNG
            Self.still("IMG_5.jpg", format: "PNG"), Self.clip("IMG_5.mov"),  // a PNG named .jpg: the content counts
            Self.still("IMG_6.JPG"), Self.clip("IMG_6.MP4"),  // not a .mov
            Self.still("IMG_7.JPG"), Self.still("IMG_7.HEIC.MOV", format: "HEIF"),  // not a clip
            Self.still("IMG_8.HEIC", format: "AVIF"), Self.clip("IMG_8.mov"),  // an AVIF
        ]
        let items = LivePhotoPairing.items(from: photos)
        #expect(items.count == photos.count)
        #expect(items.allSatisfy { if case .livePhoto = $0.kind { false } else { true } })
        // A HEIC with an HEIF inside pairs, whatever its name says.
        let heicNamedJPG = LivePhotoPairing.items(from: [Self.still("IMG_9.JPG", format: "HEIF"), Self.clip("IMG_9.MOV")])
        #expect(Self.described(heicNamedJPG) == ["IMG_9.JPG+IMG_9.MOV"])
    }

    @Test func aStillWhoseMotionWasRejectedStaysAStill() {
        // The decoder's rejects never reach the pairing: the still's motion is simply not there.
        let items = LivePhotoPairing.items(from: [Self.still("IMG_1.HEIC", format: "HEIF"), Self.still("IMG_2.JPG")])
        #expect(Self.described(items) == ["IMG_1.HEIC", "IMG_2.JPG"])
    }

    @Test func aLargeLibraryPairsInLinearTime() {
        // 50,000 pairs and 50,000 stills: a quadratic search would take minutes.
        var photos: [PhotoInfo] = []
        for i in 0..<50_000 {
            photos.append(Self.still("IMG_\(i).HEIC", format: "HEIF"))
            photos.append(Self.clip("IMG_\(i).MOV"))
            photos.append(Self.still("P_\(i).jpg"))
        }
        let start = Date()
        let items = LivePhotoPairing.items(from: photos)
        #expect(items.count == 100_000)
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
