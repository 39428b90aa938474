// swift-tools-version:6.0
// The architecture, one way:  tuner (CLI) → TunerScreen → TunerKit (bridge) → CTuner (C++ engine).
// Audio sources (file, ALSA, demo) live in TunerAudio and feed the bridge.
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

        // The bridge: the one place that talks to the engine; readings as an AsyncStream.
        .target(name: "TunerKit", dependencies: ["CTuner"]),
        // Where samples come from: audio files (libsndfile), ALSA capture, the built-in demo.
        .target(name: "TunerAudio", dependencies: ["TunerKit", "CSndfile", "CALSA"]),
        // The ncurses front end: consumes the stream with `for await`.
        .target(name: "TunerScreen", dependencies: ["TunerKit", "CNcurses"]),
        // Command line: argument parsing, output formats, wiring sources to outputs.
        // (The CommitStamp plugin records the git commit of the build, for `tuner --version`.)
        .target(name: "TunerCLI", dependencies: ["TunerKit", "TunerAudio", "TunerScreen"],
                plugins: ["CommitStamp"]),
        .executableTarget(name: "tuner", dependencies: ["TunerCLI"]),
        .plugin(name: "CommitStamp", capability: .buildTool()),

        // Test-only: counts malloc/free per thread, to show that the real-time path allocates nothing.
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        // Test-only: running the built binary through a shell, and a file-backed ALSA capture device.
        .target(name: "TunerTestSupport", path: "Tests/TunerTestSupport"),
        .testTarget(name: "CTunerTests", dependencies: ["CTuner", "TunerKit", "TunerAudio", "AllocationCounter"]),
        .testTarget(name: "TunerKitTests", dependencies: ["TunerKit", "TunerAudio"]),
        .testTarget(name: "TunerAudioTests", dependencies: ["TunerAudio", "TunerKit", "CSndfile", "CALSA", "TunerTestSupport"]),
        .testTarget(name: "TunerScreenTests", dependencies: ["TunerScreen", "TunerKit", "TunerTestSupport"]),
        .testTarget(name: "TunerCLITests", dependencies: ["TunerCLI", "TunerKit", "TunerAudio", "TunerTestSupport"]),
    ],
    cxxLanguageStandard: .cxx17
)
