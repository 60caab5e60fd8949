// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "vitrine",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vitrine", targets: ["vitrine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // The remote status and control server (SPEC §9); its default traits (swift-configuration,
        // full Foundation) are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // Already under Hummingbird; named for the pieces the server uses directly (its event loop
        // thread, the request-deadline handler, the service group it runs in).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries from Debian's -dev packages, found through pkg-config.
        .systemLibrary(name: "CDRM", path: "Sources/CDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CJPEG", path: "Sources/CJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // Text: FreeType draws glyphs, HarfBuzz shapes them, fontconfig finds fonts, FriBidi orders
        // right-to-left text (the captions, SPEC §10).
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        // The captions' XMP packets (SPEC §10): a real XML parser, with entity declarations refused.
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat",
                       providers: [.apt(["libexpat1-dev"])]),
        // The still formats beside JPEG (SPEC §11): HEIF/HEIC and AVIF through libheif (libde265,
        // dav1d), WebP through libwebp (and its demuxer: animations' first frame, metadata chunks),
        // PNG through libspng; colour profiles converted to sRGB with Little CMS 2.
        .systemLibrary(name: "CHeif", path: "Sources/CHeif", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CSpng", path: "Sources/CSpng", pkgConfig: "spng",
                       providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CLcms2", path: "Sources/CLcms2", pkgConfig: "lcms2",
                       providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat libavcodec libswscale libavutil",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CMosquitto", path: "Sources/CMosquitto", pkgConfig: "libmosquitto",
                       providers: [.apt(["libmosquitto-dev"])]),
        // Only the benchmark links pixman, to compare the blitter with it.
        .systemLibrary(name: "CPixman", path: "Sources/CPixman", pkgConfig: "pixman-1",
                       providers: [.apt(["libpixman-1-dev"])]),

        // Linux interfaces Swift's Glibc does not import (epoll, timerfd, signalfd, evdev ioctls).
        .target(name: "CLinux"),
        // `vitrine`'s first instruction: the kiosk's signals blocked before the Swift runtime starts.
        .target(name: "CEarlySignals", dependencies: ["CLinux"]),
        // libjpeg's error handling needs setjmp/longjmp, which Swift cannot call: the fallback
        // decoder for files TurboJPEG's tj* API refuses is a few lines of C.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"]),
        // toml++ (Debian's libtomlplusplus-dev, a compiled C++ library); the shim hands its parse to
        // Swift as plain C data. No system-library target: tomlplusplus.pc holds only the -D flags
        // that SwiftPM refuses from pkg-config, so the shim defines them itself.
        .target(name: "CTOMLShim", linkerSettings: [.linkedLibrary("tomlplusplus")]),

        // Pure logic: no I/O.
        .target(name: "Geometry"),
        // How text read from outside is quoted in a message: a bounded excerpt (SPEC §6).
        .target(name: "Quoting"),
        // Optimised in debug builds too: its SIMD loops unoptimised are a hundred times slower, and
        // the tests run the real `vitrine simulate`, which draws every frame.
        .target(name: "Blitter", dependencies: ["Geometry", "CLinux", "CBlitterKernels"], swiftSettings: [.unsafeFlags(["-O"])]),
        // The blitter's AVX2 kernels, chosen at run time (C: Swift has no per-function target
        // features). Optimised in debug builds too, as the blitter is.
        .target(name: "CBlitterKernels", cSettings: [.unsafeFlags(["-O2"])]),
        .target(name: "Animation"),
        .target(name: "Touch", dependencies: ["Geometry", "Quoting"]),
        .target(name: "Gestures", dependencies: ["Geometry", "Touch"]),
        // The settings as plain values: the composition of the structs their readers own (Scene's,
        // RunLoopRules', swift-log's level) and its own for what only the glue reads; their TOML
        // file is read by ConfigFile.
        .target(name: "Config", dependencies: [
            "RunLoopRules", "Scene", "Animation", "Gestures", .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "Scene", dependencies: ["Geometry", "Animation", "Touch", "Gestures"]),
        // The run loop's rules: when to draw, what the kiosk does when nobody touches it, opening
        // hours. Config holds the opening hours as its values (the settings are plain values).
        .target(name: "RunLoopRules", dependencies: ["Geometry"]),

        // Linux and C glue.
        .target(name: "ConfigFile", dependencies: ["Config", "Linux", "Quoting", "CTOMLShim"]),
        .target(name: "PNG", dependencies: ["Blitter", "CSpng", "Linux"]),
        // Colour management: a photo's ICC profile or CICP description converted to sRGB (lcms2).
        .target(name: "Colour", dependencies: ["Blitter", "CLcms2"]),
        // Clips (SPEC §12): FFmpeg's demuxers, decoders and scaler, wrapped once.
        .target(name: "Clips", dependencies: [
            "Blitter", "Geometry", "Linux", "CFFmpeg", .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "Photos", dependencies: [
            "Blitter", "CTurboJPEG", "CJPEGShim", "CExpat", "CHeif", "CWebP", "CSpng", "CZlib", "Colour", "Clips", "Linux", "Config", "RunLoopRules",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // Captions drawn as text: fonts, shaping, bidi, line breaking and a glyph cache.
        .target(name: "Text", dependencies: ["Blitter", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi"]),
        .target(name: "Linux", dependencies: ["CLinux", "Quoting", .product(name: "SystemPackage", package: "swift-system")]),
        .target(name: "Evdev", dependencies: [
            "CLinux", "Linux", "Touch", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .target(name: "DRM", dependencies: [
            "CDRM", "Quoting", "Geometry", "Blitter", "Config", "Linux",
            .product(name: "SystemPackage", package: "swift-system"),
        ]),

        // Rendering: the scene drawn over the decoded photos (Viewer, Renderer, PhotoStore).
        .target(name: "Rendering", dependencies: [
            "Geometry", "Blitter", "Touch", "Config", "Scene", "Photos", "Text", "Quoting", "Clips", "RunLoopRules", "Linux",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The kiosk's devices: the DRM display as the app uses it, the touch panels and keys.
        .target(name: "Devices", dependencies: [
            "Geometry", "Blitter", "Touch", "Config", "DRM", "Evdev", "Linux",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        // Remote control's transport-neutral core (SPEC §9, §14): the actions and their checks, the
        // snapshot the run loop publishes, the queue and eventfd that wake it, the screenshot hand-over.
        .target(name: "RemoteControl", dependencies: ["Linux", "Blitter"]),
        // The HTTP transport (SPEC §9) beside it: Hummingbird on threads of its own.
        .target(name: "RemoteHTTP", dependencies: [
            "RemoteControl", "Linux", "PNG", "Blitter",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The MQTT transport (SPEC §14) beside it: libmosquitto on a thread of its own, the kiosk's
        // topics and Home Assistant's discovery.
        .target(name: "RemoteMQTT", dependencies: [
            "RemoteControl", "CMosquitto", "Linux", .product(name: "Logging", package: "swift-log"),
        ]),

        // The application: `run` (the epoll wiring), `simulate`, the demo tour, the commands' work.
        .target(name: "VitrineApp", dependencies: [
            "Geometry", "Blitter", "PNG", "Touch", "Config", "ConfigFile", "Scene", "Photos", "Linux", "RunLoopRules",
            "Rendering", "Devices", "DRM", "RemoteControl", "RemoteHTTP", "RemoteMQTT", "Quoting",
            .product(name: "Logging", package: "swift-log"),
            // DRM's errors carry swift-system's Errno; the compiler needs its module to read Devices'.
            .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .executableTarget(name: "vitrine", dependencies: [
            "VitrineApp", "ConfigFile", "Linux", "CEarlySignals",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Real-kernel check of the DRM module (Tests/EndToEnd/test_drm_smoke.py runs it in qemu).
        .executableTarget(name: "drm-smoke", dependencies: ["DRM", "Geometry", "Blitter", "Config"]),

        // Benchmarks, release build (scripts/bench): blits and frames against pixman, start-up and memory.
        .executableTarget(name: "vitrine-bench", dependencies: [
            "Blitter", "Geometry", "Photos", "Scene", "Config", "Rendering", "CPixman", "Touch", "Linux", "Text", "Colour",
            "RemoteControl", "RemoteHTTP", "RemoteMQTT", "RunLoopRules", "PNG", "Clips",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The fuzz targets' entries (Fuzz/README.md): scripts/fuzz links each with libFuzzer, and the
        // tests replay the committed corpora through the same entries.
        .target(name: "FuzzTargets", dependencies: [
            "Touch", "Geometry", "Photos", "Clips", "Blitter", "Config", "ConfigFile", "Scene", "Linux", "RemoteControl", "RemoteHTTP", "Text",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Fuzz/Targets"),
        // scripts/sanitize's sweep, built without sanitizers to run under Valgrind (its AddressSanitizer
        // build links the same source with .build-fuzz's objects, as scripts/fuzz does).
        .executableTarget(name: "vitrine-sanitize", dependencies: ["FuzzTargets", "Text"], path: "Fuzz/Sweep"),

        // What the test targets share (like swift-collections' _CollectionsTestSupport): where the
        // repository's test files are, temporary folders, test pictures and their comparison, the
        // touch recordings, a log recorder. The JPEGs and recordings stay beside the tests that
        // began with them and are read from the source tree.
        .target(name: "TestSupport", dependencies: [
            "Geometry", "Blitter", "Touch", "Photos", "CZlib", .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/TestSupport"),

        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "QuotingTests", dependencies: ["Quoting"]),
        .testTarget(name: "BlitterTests", dependencies: [
            "Blitter", "Geometry", "PNG", "Linux", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "AnimationTests", dependencies: ["Animation"]),
        .testTarget(name: "TouchTests", dependencies: ["Touch", "Geometry", "TestSupport", "FuzzTargets"], exclude: ["Recordings"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "Touch", "Geometry"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "ConfigFile", "Linux", "TestSupport", "FuzzTargets"]),
        .testTarget(name: "SceneTests", dependencies: ["Scene", "Geometry", "Touch", "Animation", "TestSupport"]),
        .testTarget(name: "LinuxTests", dependencies: [
            "Linux", "TestSupport", .product(name: "SystemPackage", package: "swift-system"),
        ]),
        .testTarget(name: "DRMTests", dependencies: ["DRM", "Config", "Geometry"]),
        .testTarget(name: "DevicesTests", dependencies: ["Devices", "DRM", "Touch", "Config", "Geometry"]),
        .testTarget(name: "PhotosTests", dependencies: [
            "Photos", "Blitter", "CZlib", "Geometry", "Linux", "PNG", "TestSupport", "FuzzTargets", .product(name: "Logging", package: "swift-log"),
            .product(name: "SystemPackage", package: "swift-system"),
        ], exclude: ["JPEGs", "Formats"]),
        .testTarget(name: "TextTests", dependencies: ["Text", "Blitter"]),
        .testTarget(name: "ColourTests", dependencies: ["Colour", "Blitter", "CLcms2", "TestSupport"]),
        .testTarget(name: "ClipsTests", dependencies: ["Clips", "Blitter", "Linux", "TestSupport", "FuzzTargets"], exclude: ["Clips"]),
        .testTarget(name: "RunLoopRulesTests", dependencies: ["RunLoopRules"]),
        .testTarget(name: "RenderingTests", dependencies: ["Rendering", "Config", "Scene", "Blitter", "Geometry", "Photos", "TestSupport"]),
        .testTarget(name: "RemoteControlTests", dependencies: ["RemoteControl", "Blitter"]),
        .testTarget(name: "RemoteHTTPTests", dependencies: ["RemoteHTTP", "RemoteControl", "Blitter", "Linux", "TestSupport", "FuzzTargets"]),
        .testTarget(name: "RemoteMQTTTests", dependencies: ["RemoteMQTT", "RemoteControl", "Linux", "TestSupport"]),
        .testTarget(name: "VitrineAppTests", dependencies: [
            "VitrineApp", "Config", "Touch", "Scene", "Photos", "Linux", "Blitter", "Geometry", "TestSupport", "Rendering",
            "RemoteControl", "RemoteHTTP", "Colour", .product(name: "Logging", package: "swift-log"),
        ]),
    ],
    swiftLanguageModes: [.v5],
    cxxLanguageStandard: .cxx17
)
