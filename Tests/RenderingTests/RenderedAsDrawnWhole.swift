import Blitter
import Scene
import Testing
@testable import Rendering

/// `render` into `target` (which holds whatever the frames before it left) must give exactly the
/// picture of `renderDirectly`, every layer drawn whole over a colour that must not show.
func expectRenderedAsDrawnWhole(_ frame: SceneFrame, _ renderer: Renderer, _ photos: PhotoImages, _ comment: Comment,
                                target: inout Bitmap, sourceLocation: SourceLocation = #_sourceLocation) {
    var reference = Bitmap(width: target.width, height: target.height, color: 0x12_34_56)
    renderer.renderDirectly(frame, images: photos, into: &reference)
    renderer.render(frame, images: photos, into: &target)
    let differing = zip(target.pixels, reference.pixels).filter { $0 != $1 }.count
    #expect(differing == 0, comment, sourceLocation: sourceLocation)
}
