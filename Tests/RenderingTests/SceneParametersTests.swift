import Animation
import Config
import Scene
import Testing
@testable import Rendering

/// The settings reach the scene through `SceneParameters(settings)` alone.
@Suite struct SceneParametersTests {
    @Test func theConfigsDefaultsAreTheScenesReferenceNumbers() {
        #expect(SceneParameters(Settings()) == SceneParameters())
    }

    @Test func everyInteractionSettingReachesTheScene() {
        var settings = Settings()
        settings.grid.columns = 6
        settings.grid.spacing = 2
        settings.grid.decelerationRate = 0.99
        settings.pager.pageSpacing = 30
        settings.pager.flickVelocity = 800
        settings.pager.maxZoom = 6
        settings.pager.doubleTapZoom = 3
        settings.dismiss.maxDrag = 300
        settings.dismiss.minScale = 0.5
        settings.dismiss.progressThreshold = 0.2
        settings.dismiss.upwardVelocity = 80
        settings.dismiss.startDistance = 12
        settings.input.tapSlop = 15
        settings.input.tapTimeout = 0.4
        let a = [0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.21, 0.22, 0.23]
        settings.animation.openDuration = a[0]
        settings.animation.openDamping = a[1]
        settings.animation.cancelDuration = a[2]
        settings.animation.cancelDamping = a[3]
        settings.animation.finishDuration = a[4]
        settings.animation.finishDamping = a[5]
        settings.animation.closeDuration = a[6]
        settings.animation.pageSettleDuration = a[7]
        settings.animation.zoomDuration = a[8]
        settings.animation.zoomDamping = a[9]
        settings.animation.bounceDuration = a[10]
        settings.animation.bounceDamping = a[11]

        let parameters = SceneParameters(settings)
        #expect((parameters.grid.columns, parameters.grid.spacing, parameters.grid.decelerationRate) == (6, 2, 0.99))
        #expect(parameters.grid.bounce == Spring(duration: a[10], dampingRatio: a[11]))
        #expect((parameters.pager.pageSpacing, parameters.pager.flickVelocity) == (30, 800))
        #expect((parameters.pager.maxZoom, parameters.pager.doubleTapZoom, parameters.pager.settleDuration) == (6, 3, a[7]))
        #expect(parameters.pager.zoom == Spring(duration: a[8], dampingRatio: a[9]))
        #expect((parameters.dismiss.maxDrag, parameters.dismiss.minScale, parameters.dismiss.progressThreshold) == (300, 0.5, 0.2))
        #expect((parameters.dismiss.upwardVelocity, parameters.dismiss.startDistance) == (80, 12))
        #expect(parameters.dismiss.finish == Spring(duration: a[4], dampingRatio: a[5]))
        #expect(parameters.dismiss.cancel == Spring(duration: a[2], dampingRatio: a[3]))
        #expect((parameters.gestures.tapSlop, parameters.gestures.tapTimeout) == (15, 0.4))
        #expect(parameters.open == Spring(duration: a[0], dampingRatio: a[1]))
        #expect(parameters.closeDuration == a[6])
    }
}
