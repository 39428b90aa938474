// swift-tools-version:6.0
// The architecture, one way:  tuner (CLI) → TunerScreen → TunerMusic → TunerBridge → CTuner (C++ engine).
// Physics in C++, music in Swift: the engine measures (time, frequency, clarity, level); TunerBridge owns
// it and delivers the measurements as an AsyncStream; TunerMusic names notes, knows A4, cents, the
// tolerance, tunings and settling, in one ReadingPipeline. The units (Hertz, Cents, Decibels) and the
// engine's `Limits` live in TunerBridge, because the measurements carry them; TunerMusic adds its limits
// to the same `Limits`. Audio sources (file, ALSA, demo) live in TunerAudio and feed the bridge.
import PackageDescription

let package = Package(
    name: "tuner",
    products: [
        .executable(name: "tuner", targets: ["tuner"]),
    ],
    targets: [
        // The pitch engine: C++17 behind an extern "C" header (CTuner/include/ctuner.h).
        .target(
            name: "CTuner",
            path: "CTuner",
            sources: ["src"],
            publicHeadersPath: "include",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("fftw3f"), .linkedLibrary("m"), .linkedLibrary("pthread")]
        ),
        // System libraries, each behind a module map and a small shim.
        .systemLibrary(name: "CSndfile", path: "Sources/CSndfile"),
        .systemLibrary(name: "CALSA", path: "Sources/CALSA"),
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),

        // The bridge: the one place that talks to the engine; measurements as an AsyncStream.
        .target(name: "TunerBridge", dependencies: ["CTuner"]),
        // The music domain: notes, A4, cents, tunings, settling, string choice; one ReadingPipeline.
        .target(name: "TunerMusic", dependencies: ["TunerBridge"]),
        // Where samples come from: audio files (libsndfile), ALSA capture, the built-in demo.
        .target(name: "TunerAudio", dependencies: ["TunerBridge", "TunerMusic", "CSndfile", "CALSA"]),
        // The ncurses front end: consumes the stream with `for await`.
        .target(name: "TunerScreen", dependencies: ["TunerBridge", "TunerMusic", "CNcurses"]),
        // Command line: argument parsing, output formats, wiring sources to outputs.
        // (The CommitStamp plugin records the git commit of the build, for `tuner --version`.)
        .target(name: "TunerCLI", dependencies: ["TunerBridge", "TunerMusic", "TunerAudio", "TunerScreen"],
                plugins: ["CommitStamp"]),
        .executableTarget(name: "tuner", dependencies: ["TunerCLI"]),
        .plugin(name: "CommitStamp", capability: .buildTool()),

        // Test-only: counts malloc/free per thread, to show that the real-time path allocates nothing.
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        // Test-only: running the built binary through a shell, a file-backed ALSA capture device, and an
        // in-memory AudioSource.
        .target(name: "TunerTestSupport", dependencies: ["TunerBridge"], path: "Tests/TunerTestSupport"),
        .testTarget(name: "CTunerTests", dependencies: ["CTuner", "TunerBridge", "TunerMusic", "TunerAudio", "AllocationCounter"]),
        .testTarget(name: "TunerBridgeTests", dependencies: ["TunerBridge", "TunerAudio", "TunerTestSupport", "AllocationCounter"]),
        .testTarget(name: "TunerMusicTests", dependencies: ["TunerMusic", "TunerBridge", "TunerAudio", "TunerTestSupport"]),
        .testTarget(name: "TunerAudioTests", dependencies: ["TunerAudio", "TunerBridge", "TunerMusic", "CSndfile", "CALSA", "TunerTestSupport"]),
        .testTarget(name: "TunerScreenTests", dependencies: ["TunerScreen", "TunerBridge", "TunerMusic", "TunerAudio", "TunerTestSupport"]),
        .testTarget(name: "TunerCLITests", dependencies: ["TunerCLI", "TunerBridge", "TunerMusic", "TunerAudio", "TunerTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
