import Animation
import Config
import Gestures
import Scene

extension SceneParameters {
    /// The interaction's numbers as the config sets them: the one place where settings become
    /// scene parameters.
    public init(_ settings: Settings) {
        self.init()
        let animation = settings.animation
        grid.columns = settings.grid.columns
        grid.spacing = settings.grid.spacing
        grid.decelerationRate = settings.grid.decelerationRate
        grid.bounce = Spring(duration: animation.bounceDuration, dampingRatio: animation.bounceDamping)

        pager.pageSpacing = settings.pager.pageSpacing
        pager.flickVelocity = settings.pager.flickVelocity
        pager.maxZoom = settings.pager.maxZoom
        pager.doubleTapZoom = settings.pager.doubleTapZoom
        pager.settleDuration = animation.pageSettleDuration
        pager.zoom = Spring(duration: animation.zoomDuration, dampingRatio: animation.zoomDamping)

        dismiss.maxDrag = settings.dismiss.maxDrag
        dismiss.minScale = settings.dismiss.minScale
        dismiss.progressThreshold = settings.dismiss.progressThreshold
        dismiss.upwardVelocity = settings.dismiss.upwardVelocity
        dismiss.startDistance = settings.dismiss.startDistance
        dismiss.finish = Spring(duration: animation.finishDuration, dampingRatio: animation.finishDamping)
        dismiss.cancel = Spring(duration: animation.cancelDuration, dampingRatio: animation.cancelDamping)

        gestures.tapSlop = settings.input.tapSlop
        gestures.tapTimeout = settings.input.tapTimeout
        open = Spring(duration: animation.openDuration, dampingRatio: animation.openDamping)
        closeDuration = animation.closeDuration
    }
}
