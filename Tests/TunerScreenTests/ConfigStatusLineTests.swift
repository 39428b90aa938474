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

    @Test func aStatusLineTooWideForTheTerminalIsCutWithAnEllipsis() {
        let model = ScreenModel(sourceLabel: "file fluidr3_steel_strum_608.flac, 48000 Hz, mono", sampleRate: 48_000,
                                size: ScreenSize(rows: 24, columns: 80))
        let full = ScreenRenderer.statusLine(model)
        #expect(full == "file fluidr3_steel_strum_608.flac, 48000 Hz, mono · A4 440 Hz · tolerance ±3.0 ¢")
        // As wide as it is, it is whole; a column less, the settings come first and the file's part is cut,
        // saying so (an 80-column terminal showed "…, 48000 Hz, mon").
        #expect(ScreenRenderer.statusLine(model, width: full.count) == full)
        let cut = ScreenRenderer.statusLine(model, width: full.count - 1)
        #expect(cut == "A4 440 Hz · tolerance ±3.0 ¢ · file fluidr3_steel_strum_608.flac, 48000 Hz, mo…")
        let narrow = ScreenRenderer.statusLine(model, width: 40)
        #expect(narrow.count == 40 && narrow.hasSuffix("…") && narrow.hasPrefix("A4 440 Hz · tolerance ±3.0 ¢"), "\(narrow)")
    }

}
