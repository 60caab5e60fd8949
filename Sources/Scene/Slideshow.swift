import Animation
import Geometry

/// The kiosk's slideshow (`Scene.advanceSlideshow`): the slide shown, and while one slide changes to
/// the next, the one leaving. Its frames' pages are dissolved (`SceneFrame.pages`): each photo with
/// its alpha over black.
///
/// The transitions, over `duration` (`kiosk.transition_duration`, never longer than the interval):
/// - slide: the next slide comes in from the right as the pager's pages do after a swipe (the same
///   critically damped spring, no slower than `pager.settleDuration`), the leaving one going out left;
/// - crossfade: the leaving slide's alpha 1 - a, the next one's a, a on the ease-in-out curve;
/// - Ken Burns: a crossfade, and each slide zooms and pans (`KenBurns`) over its whole time on
///   screen, from the start of the transition that brings it to the end of the one that takes it
///   away (the interval plus the transition). It moves in every frame: `isAnimating` stays true.
final class Slideshow {
    let transition: SceneParameters.Slideshow.Transition
    private let screen: Rect
    /// From one slide's place to the next's in a slide transition.
    private let pageWidth: Double
    private let parameters: SceneParameters
    /// The slide shown: the incoming one once a transition has started.
    private(set) var slide: Slide
    /// The slide going away and when its transition started.
    private var leaving: (slide: Slide, start: Double, duration: Double)?

    init(_ slide: Slide, parameters: SceneParameters, screen: Rect) {
        transition = parameters.slideshow.transition
        self.parameters = parameters
        pageWidth = screen.width + parameters.pager.pageSpacing
        self.screen = screen
        self.slide = slide
    }

    /// The photo the slideshow shows: the incoming slide's first.
    var currentIndex: Int { slide.photos[0].index }

    var isAnimating: Bool { leaving != nil || transition == .kenBurns }

    /// How long the change to the next slide takes when slides change every `interval` seconds.
    static func duration(_ parameters: SceneParameters, interval: Double) -> Double {
        let own = max(parameters.slideshow.transitionDuration, 0)
        let wanted = parameters.slideshow.transition == .slide ? min(own, parameters.pager.settleDuration) : own
        return min(wanted, max(interval, 0))
    }

    /// The slide after this one (from `next`, the photo after those shown) starts coming in at `time`;
    /// with Ken Burns it moves until `interval` plus the transition after it has ended. A transition
    /// still running is finished first.
    func advance(to next: Slide, interval: Double, at time: Double) {
        let duration = Self.duration(parameters, interval: interval)
        var next = next
        if transition == .kenBurns { next.motion = (time, time + max(interval, 0) + duration) }
        leaving = (slide, time, duration)
        slide = next
    }

    /// Ken Burns on the slide shown now, from now until the next transition (after `interval`) ends:
    /// the first slide after the opening starts at rest.
    func startMotion(at time: Double, until end: Double) {
        guard transition == .kenBurns else { return }
        slide.motion = (time, max(end, time))
    }

    /// Ends the transition that is over at `time`.
    func update(to time: Double) {
        if let leaving, time >= leaving.start + leaving.duration { self.leaving = nil }
    }

    /// The incoming slide's fraction of the way in at `time`: 1 when no transition runs.
    private func progress(at time: Double) -> Double {
        guard let leaving else { return 1 }
        let elapsed = time - leaving.start
        switch transition {
        case .slide: return Spring(duration: leaving.duration, dampingRatio: 1).value(at: elapsed)
        case .crossfade, .kenBurns: return BezierTiming(.easeInOut, duration: leaving.duration).value(at: elapsed)
        }
    }

    /// The incoming slide's horizontal offset from its place at rest (a slide transition's).
    private func offset(at time: Double) -> Double {
        transition == .slide && leaving != nil ? pageWidth * (1 - progress(at: time)) : 0
    }

    /// The pages at `time`: the leaving slide's photos first, then the incoming slide's.
    func pages(at time: Double) -> [PhotoPlacement] {
        let shown = placements(of: slide, at: time, dx: offset(at: time))
        guard let leaving else { return shown }
        let a = progress(at: time)
        switch transition {
        case .slide:
            let out = placements(of: leaving.slide, at: time, dx: -pageWidth * a)
            return out.filter { $0.rect.intersection(screen) != nil } + shown
        case .crossfade, .kenBurns:
            let out = placements(of: leaving.slide, at: time, dx: 0).map {
                PhotoPlacement(index: $0.index, rect: $0.rect, alpha: 1 - a, showsCaption: $0.showsCaption)
            }
            return (a < 1 ? out : []) + shown.map { PhotoPlacement(index: $0.index, rect: $0.rect, alpha: a, showsCaption: $0.showsCaption) }
        }
    }

    private func placements(of slide: Slide, at time: Double, dx: Double) -> [PhotoPlacement] {
        zip(slide.indices, slide.rects(at: time)).map {
            PhotoPlacement(index: $0, rect: $1.offsetBy(dx: dx, dy: 0), showsCaption: slide.photos.count == 1)
        }
    }

    /// The incoming slide's photo under `point` at `time` (or the nearest one across; nil: its
    /// first), its rect on screen, and the slide's horizontal offset from rest that rect includes.
    func photo(at point: Point?, time: Double) -> (index: Int, rect: Rect, offset: Double) {
        guard let point else { return photo(at: Point(x: -Double.infinity, y: 0), time: time) }
        let dx = offset(at: time)
        let rects = slide.rects(at: time).map { $0.offsetBy(dx: dx, dy: 0) }
        let nearest = rects.indices.min { abs(rects[$0].midX - point.x) < abs(rects[$1].midX - point.x) } ?? 0
        let chosen = rects.indices.first { rects[$0].contains(point) } ?? nearest
        return (slide.photos[chosen].index, rects[chosen], dx)
    }
}
