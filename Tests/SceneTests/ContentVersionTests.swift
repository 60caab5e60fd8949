import Geometry
import Testing
@testable import Scene

/// Content that changes while the scene is at rest (a clip's frame): the frames that show it
/// carry its version, so a frame at rest differs from the one on screen only when it shows
/// another picture.
@Suite struct ContentVersionTests {
    @Test func aFrameAtRestShowsTheSamePictureUntilAContentVersionChanges() {
        let harness = Harness(photoCount: 20)
        let scene = harness.scene
        scene.open(3, at: 1)
        let onScreen = scene.frame(at: 3)
        #expect(onScreen.mode == .pager && !scene.isAnimating)
        // Later, nothing changed: the same picture, whatever its time stamp.
        #expect(scene.frame(at: 4).showsSamePicture(as: onScreen))
        #expect(!onScreen.showsSamePicture(as: nil))
        // The open photo's next clip frame: the page carries it, the frame is another picture.
        scene.setContentVersion(1, of: 3)
        let next = scene.frame(at: 5)
        #expect(!next.showsSamePicture(as: onScreen))
        #expect(next.pages.first { $0.index == 3 }?.contentVersion == 1)
        #expect(next.pages.filter { $0.index != 3 }.allSatisfy { $0.contentVersion == 0 })
        #expect(scene.frame(at: 6).showsSamePicture(as: next))
        // A photo not on screen changes nothing that is drawn.
        scene.setContentVersion(7, of: 15)
        #expect(scene.frame(at: 7).showsSamePicture(as: next))
    }

    @Test func gridCellsAndTheCarriedPhotoCarryTheirVersions() {
        let harness = Harness(photoCount: 20)
        let scene = harness.scene
        scene.setContentVersion(2, of: 1)
        #expect(scene.frame(at: 1).gridCells.first { $0.index == 1 }?.contentVersion == 2)
        scene.open(1, at: 1)
        let opening = scene.frame(at: 1.1)
        #expect(opening.movingPhoto?.index == 1 && opening.movingPhoto?.contentVersion == 2)
        // A new library: the indices name other photos, whose versions start again.
        scene.setPhotoSizes(Harness.photoSizes(20))
        #expect(scene.frame(at: 5).gridCells.allSatisfy { $0.contentVersion == 0 })
    }

    /// Existing transitions draw every photo opaque.
    @Test func photosAreOpaqueUnlessSaidOtherwise() {
        let harness = Harness(photoCount: 20)
        harness.scene.open(2, at: 1)
        #expect(harness.scene.frame(at: 1.2).movingPhoto?.alpha == 1)
        #expect(harness.scene.frame(at: 3).pages.allSatisfy { $0.alpha == 1 })
    }
}
