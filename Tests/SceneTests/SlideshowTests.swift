import Animation
import Geometry
import Testing
import TestSupport
@testable import Scene

/// The kiosk's slideshow (`Scene.advanceSlideshow`): its own mode, its three transitions, portrait
/// pairs, and the touch that hands its photo to the pager. Virtual time, exact values.
@Suite struct SlideshowTests {
    /// On the 1080x1920 harness screen.
    let landscapeFit = Rect(x: 0, y: 555, width: 1080, height: 810)
    let portraitFit = Rect(x: 0, y: 240, width: 1080, height: 1440)
    let pageWidth = 1100.0
    let interval = 8.0

    func parameters(_ transition: SceneParameters.Slideshow.Transition, pairs: Bool = false) -> SceneParameters {
        var parameters = SceneParameters()
        parameters.slideshow.transition = transition
        parameters.slideshow.portraitPairs = pairs
        return parameters
    }

    func opened(_ index: Int, photoCount: Int = 6, _ transition: SceneParameters.Slideshow.Transition = .slide) -> Harness {
        let h = Harness(photoCount: photoCount, parameters: parameters(transition))
        h.open(index)
        #expect(h.frame().mode == .pager)
        return h
    }

    /// Every slideshow frame: its mode, no grid, black under the slides.
    func expectSlideshowFrame(_ frame: SceneFrame, current: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(frame.mode == .slideshow, sourceLocation: sourceLocation)
        #expect(!frame.drawsGrid && frame.backgroundAlpha == 1, sourceLocation: sourceLocation)
        #expect(frame.currentIndex == current, sourceLocation: sourceLocation)
    }

    /// "slide": from the pager, the next photo comes in from the right on the pager's settle, frame
    /// for frame as the pager's own "next" moves it, and the indices wrap as before.
    @Test func slideMovesAsThePagerDidAndWraps() {
        let h = opened(1, photoCount: 3)
        let pager = opened(1, photoCount: 3)
        let start = h.time
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        pager.scene.showNext(at: pager.time)
        var frame = h.frame()
        expectSlideshowFrame(frame, current: 2)
        #expect(frame.pages == [PhotoPlacement(index: 1, rect: portraitFit),
                                PhotoPlacement(index: 2, rect: landscapeFit.offsetBy(dx: pageWidth, dy: 0))])
        for dt in [0.05, 0.1, 0.2, 0.3] {
            h.time = start + dt
            pager.time = start + dt
            frame = h.frame()
            expectSlideshowFrame(frame, current: 2)
            let paged = pager.frame()
            #expect(near(frame.photoRect, paged.photoRect, 1e-9), "at \(dt) s")
            #expect(frame.pages.map(\.index) == paged.pages.map(\.index), "at \(dt) s")
            for (slide, page) in zip(frame.pages, paged.pages) { #expect(near(slide.rect, page.rect, 1e-9), "at \(dt) s") }
        }
        h.time = start + h.parameters.pager.settleDuration
        frame = h.frame()
        #expect(frame.pages == [PhotoPlacement(index: 2, rect: landscapeFit)])
        // A still slide: nothing moves until the next one.
        #expect(!h.scene.isAnimating)
        h.time = start + interval
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        expectSlideshowFrame(h.frame(), current: 0)
        h.settle()
        #expect(h.frame().pages == [PhotoPlacement(index: 0, rect: landscapeFit)])
    }

    /// "crossfade": the leaving photo at 1 - a, the incoming at a, a on the ease-in-out curve over
    /// the transition's duration; then the slide is still.
    @Test func crossfadeAlphasFollowTheEaseInOutCurveAndSumToOne() {
        let h = opened(2, .crossfade)
        let start = h.time
        h.scene.advanceSlideshow(at: start, interval: interval)
        let duration = h.parameters.slideshow.transitionDuration
        for u in [0.0, 0.25, 0.5, 0.75] {
            h.time = start + u * duration
            let frame = h.frame()
            expectSlideshowFrame(frame, current: 3)
            let a = CubicBezier.easeInOut.value(at: u)
            #expect(frame.pages.count == 2)
            #expect(frame.pages[0].index == 2 && frame.pages[0].rect == landscapeFit && near(frame.pages[0].alpha, 1 - a))
            #expect(frame.pages[1].index == 3 && frame.pages[1].rect == portraitFit && near(frame.pages[1].alpha, a))
            #expect(near(frame.pages[0].alpha + frame.pages[1].alpha, 1, 1e-12))
            #expect(frame.photoRect == portraitFit)
            #expect(h.scene.isAnimating)
            if u == 0.5 { #expect(near(frame.pages[1].alpha, 0.5)) }
        }
        h.time = start + duration
        #expect(h.frame().pages == [PhotoPlacement(index: 3, rect: portraitFit)])
        #expect(!h.scene.isAnimating)
    }

    /// "ken_burns": a crossfade, and each slide grows linearly from its fit to 1.1 times it over the
    /// interval plus the transition; a landscape photo about the screen's centre, a portrait one
    /// with its upper third moving to the centre as far as the screen's edges allow.
    @Test func kenBurnsZoomsFromFitToOnePointOneOverTheSlidesTimeOnScreen() throws {
        let h = opened(1, .kenBurns)
        let start = h.time
        let duration = h.parameters.slideshow.transitionDuration
        h.scene.advanceSlideshow(at: start, interval: interval)
        #expect(h.frame().pages.last == PhotoPlacement(index: 2, rect: landscapeFit, alpha: 0))
        h.time = start + (interval + duration) / 2
        let middle = h.frame().pages
        #expect(middle.count == 1)
        #expect(near(middle[0].rect, Rect(x: -27, y: 960 - 810 * 1.05 / 2, width: 1134, height: 850.5), 1e-9))
        // Ken Burns moves in every frame, between transitions too.
        #expect(h.scene.isAnimating)
        // The next slide (photo 3, a portrait) comes in while photo 2 reaches 1.1 as it fades out.
        let next = start + interval
        h.time = next
        h.scene.advanceSlideshow(at: next, interval: interval)
        h.time = next + duration - 0.001
        let end = h.frame().pages
        try #require(end.count == 2)
        #expect(near(end[0].rect, Rect(x: -54, y: 960 - 445.5, width: 1188, height: 891), 0.05))
        #expect(near(end[1].rect.width / portraitFit.width, 1 + 0.1 * (duration - 0.001) / (interval + duration), 1e-9))
        // Photo 3 at its end: 1.1x, its upper third's point moved from y 720 towards the centre,
        // stopped where the photo's bottom reaches the screen's (1920 - 1584 = 336).
        h.time = next + interval + duration
        let portrait = h.frame().pages
        #expect(portrait.count == 1 && portrait[0].index == 3 && portrait[0].alpha == 1)
        #expect(near(portrait[0].rect, Rect(x: -54, y: 336, width: 1188, height: 1584), 1e-9))
    }

    /// On a landscape screen a portrait fit is the screen's height: its top stays at the screen's
    /// top as it zooms (black never grows), so the view closes in on its upper part.
    @Test func kenBurnsKeepsAPortraitsTopOnALandscapeScreen() {
        let rest = Rect(x: 555, y: 0, width: 810, height: 1080)
        let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
        let focus = KenBurns.focus(of: Size(width: 3000, height: 4000))
        #expect(focus == Point(x: 0.5, y: 1.0 / 3))
        #expect(KenBurns.rect(rest: rest, region: screen, focus: focus, scale: 1.1, progress: 0) == rest)
        for progress in stride(from: 0.1, through: 1, by: 0.1) {
            let rect = KenBurns.rect(rest: rest, region: screen, focus: focus, scale: 1.1, progress: progress)
            #expect(rect.minY == 0 && rect.maxY >= 1080)
            #expect(near(rect.midX, 960, 1e-9))
            #expect(near(rect.width, 810 * (1 + 0.1 * progress), 1e-9))
        }
    }

    /// Portrait pairs on a landscape screen: two consecutive portraits side by side, each fit in its
    /// half with the page spacing between them, centred; a lone portrait and a landscape photo are
    /// slides of one; the slideshow advances by the photos a slide showed.
    @Test func portraitPairsShowTwoConsecutivePortraitsSideBySide() {
        let landscape = Size(width: 4000, height: 3000), portrait = Size(width: 3000, height: 4000)
        let h = Harness(screenSize: Size(width: 1920, height: 1080),
                        photoSizes: [landscape, portrait, portrait, portrait, landscape],
                        parameters: parameters(.crossfade, pairs: true))
        h.scene.open(0, at: h.time)
        h.settle()
        var shown: [[Int]] = []
        for _ in 0..<4 {
            h.scene.advanceSlideshow(at: h.time, interval: interval)
            h.settle(interval)
            shown.append(h.frame().pages.map(\.index))
        }
        #expect(shown == [[1, 2], [3], [4], [0]])

        let pairs = Harness(screenSize: Size(width: 1920, height: 1080),
                            photoSizes: [landscape, portrait, portrait], parameters: parameters(.crossfade, pairs: true))
        pairs.scene.open(0, at: pairs.time)
        pairs.settle()
        pairs.scene.advanceSlideshow(at: pairs.time, interval: interval)
        let frame = pairs.settle()
        expectSlideshowFrame(frame, current: 1)
        // 810 px each (3:4 at 1080 high), 20 px between: (1920 - 1640) / 2 = 140 px each side.
        #expect(frame.pages.map(\.index) == [1, 2] && frame.pages.allSatisfy { $0.alpha == 1 })
        // A pair's photos carry no caption (a slide of one does, as a page in the pager).
        #expect(frame.pages.allSatisfy { !$0.showsCaption })
        #expect(near(frame.pages[0].rect, Rect(x: 140, y: 0, width: 810, height: 1080)))
        #expect(near(frame.pages[1].rect, Rect(x: 970, y: 0, width: 810, height: 1080)))

        // A portrait screen never pairs.
        let tall = Harness(photoCount: 6, parameters: parameters(.crossfade, pairs: true))
        tall.open(0)
        tall.scene.advanceSlideshow(at: tall.time, interval: interval)
        #expect(tall.settle().pages.map(\.index) == [1])
    }

    /// A tap on the right photo of a pair opens that one in the pager: it grows from its half to its
    /// fit without a jump, and the grid follows it.
    @Test func aTapOnThePairsRightPhotoOpensIt() {
        let portrait = Size(width: 3000, height: 4000)
        let h = Harness(screenSize: Size(width: 1920, height: 1080), photoSizes: Array(repeating: portrait, count: 4),
                        parameters: parameters(.crossfade, pairs: true))
        h.scene.advanceSlideshow(at: h.time, interval: interval)  // the grid: photo 0 opens
        #expect(h.frame().mode == .opening)
        h.settle()
        expectSlideshowFrame(h.frame(), current: 0)
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        let right = Rect(x: 970, y: 0, width: 810, height: 1080)
        let pair = h.settle().pages
        #expect(pair.last?.index == 2 && near(pair.last?.rect, right))
        h.touch(right.center)
        let touched = h.frame()
        #expect(touched.mode == .pager && touched.currentIndex == 2)
        #expect(touched.photoRect == pair.last?.rect)
        h.time += 0.05
        h.lift()
        let end = h.settle()
        #expect(end.mode == .pager && end.currentIndex == 2)
        #expect(near(end.photoRect, Rect(x: 555, y: 0, width: 810, height: 1080)))
        h.scene.close(at: h.time)
        #expect(h.settle().currentIndex == 2)
    }

    /// A touch mid-Ken-Burns: the pager takes the photo at its zoomed rect (no jump) and springs it
    /// back to its fit, while the touch is the pager's: a downward drag dismisses.
    @Test func aTouchDuringKenBurnsHandsThePhotoOverWithoutAJump() {
        let h = opened(1, .kenBurns)
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        h.time += 4
        let before = h.frame()
        #expect(before.pages.count == 1 && before.pages[0].rect.width > landscapeFit.width * 1.03)
        h.touch(Point(x: 540, y: 900))
        let caught = h.frame()
        #expect(caught.mode == .pager && caught.currentIndex == 2)
        #expect(caught.photoRect == before.photoRect)
        #expect(!h.scene.pager.isZoomed)
        h.move(duration: 0.2) { s in Point(x: 540, y: 900 + 150 * s) }
        #expect(h.frame().mode == .dismissing)
    }

    /// A touch during a slide transition: the incoming photo becomes the page where it is, and the
    /// pages settle from there as after a drag; the slideshow is over.
    @Test func aTouchMidSlideTakesTheIncomingPhotoAsThePage() {
        let h = opened(1)
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        h.time += 0.05
        let before = h.frame()
        h.touch(Point(x: 900, y: 960))
        let caught = h.frame()
        #expect(caught.mode == .pager && caught.currentIndex == 2)
        #expect(caught.photoRect == before.photoRect)
        #expect(caught.pages.map(\.index) == [1, 2])
        h.lift()
        let end = h.settle()
        #expect(end.mode == .pager && end.photoRect == landscapeFit)
    }

    /// The remote's next during the slideshow: the pager takes the photo shown and pages on.
    @Test func theRemotesNextEndsTheSlideshowAndPages() {
        let h = opened(1, .crossfade)
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        h.settle()
        h.scene.showNext(at: h.time)
        #expect(h.frame().mode == .pager && h.scene.currentIndex == 3)
        #expect(h.settle().photoRect == portraitFit)
    }

    /// From the grid the next photo zooms open (the opening) and the slideshow goes on from it.
    @Test func fromTheGridTheNextPhotoOpensIntoTheSlideshow() {
        let h = Harness(photoCount: 6, parameters: parameters(.kenBurns))
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        #expect(h.frame().mode == .opening && h.scene.currentIndex == 0)
        let opened = h.frame(after: 1)
        expectSlideshowFrame(opened, current: 0)
        // Ken Burns starts from the opening's end, at rest.
        #expect(opened.pages.count == 1 && opened.pages[0].rect.width < landscapeFit.width * 1.02)
        h.time += interval - 1
        h.scene.advanceSlideshow(at: h.time, interval: interval)
        expectSlideshowFrame(h.frame(), current: 1)
    }
}
