import Testing
@testable import TunerScreen

/// The screen's status line says which config file the settings came from.
@Suite struct ConfigStatusLineTests {
    @Test func theStatusLineNamesTheConfigFile() {
        var model = ScreenModel(sourceLabel: "file a2.wav, 48000 Hz", sampleRate: 48_000, size: ScreenSize(rows: 30, columns: 120))
        #expect(!ScreenRenderer.statusLine(model).contains("config"))
        model.configFile = "/home/ann/.config/tuner/config"
        #expect(ScreenRenderer.statusLine(model).hasSuffix(" · config /home/ann/.config/tuner/config"))
        #expect(ScreenRenderer.abbreviatingHome("/home/ann/.config/tuner/config", home: "/home/ann") == "~/.config/tuner/config")
        #expect(ScreenRenderer.abbreviatingHome("/home/annie/x", home: "/home/ann") == "/home/annie/x")
    }

}
