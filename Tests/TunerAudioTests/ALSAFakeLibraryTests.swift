import Testing
import TunerBridge
import TunerMusic
@testable import TunerAudio
#if canImport(Glibc)
import Glibc
#endif

/// A scripted alsa-lib: each `read` takes the next step; counts what the capture path called.
final class ScriptedALSA: ALSALibrary {
    enum Step { case frames(Float), code(Int32) }
    var openResult: Result<ALSAHandle, ALSACode> = .success(ALSAHandle(pcm: OpaquePointer(bitPattern: 0x1000)!))
    var hardware = ALSAHardware(format: .floatLE, rate: 44100, periodFrames: 220, bufferFrames: 880)
    var configureCode: Int32? = nil
    var steps: [Step] = []
    var recoverResult: Int32 = 0
    var openedName = ""
    var requested: ALSARequest?
    var readSizes: [Int] = []
    var recovered: [Int32] = []
    var closed = 0
    var silenced = 0
    var devices: Result<[ALSADeviceHint], ALSACode> = .success([])
    var listed: [ALSAError.Direction] = []

    func silenceErrors() { silenced += 1 }
    func openCapture(name: String, configuration: String?) -> Result<ALSAHandle, ALSACode> {
        openedName = name
        return openResult
    }
    func configure(_ handle: ALSAHandle, _ request: ALSARequest) -> Result<ALSAHardware, ALSACode> {
        requested = request
        if let configureCode { return .failure(ALSACode(configureCode)) }
        return .success(hardware)
    }
    func read(_ handle: ALSAHandle, into buffer: UnsafeMutableRawPointer, frames: Int) -> Int {
        readSizes.append(frames)
        guard !steps.isEmpty else { return -Int(ENODEV) }
        switch steps.removeFirst() {
        case .code(let c): return Int(c)
        case .frames(let value):
            if hardware.format == .floatLE {
                buffer.bindMemory(to: Float.self, capacity: frames).update(repeating: value, count: frames)
            } else {
                buffer.bindMemory(to: Int16.self, capacity: frames).update(repeating: Int16(value * 32768), count: frames)
            }
            return frames
        }
    }
    /// Playback: each `write` takes the next of `writeSteps` (a count of frames taken, or a code);
    /// with none left it takes everything. What was taken lands in `written` (as float).
    var playbackOpened = ""
    var writeSteps: [Int] = []
    var written: [Float] = []
    var drained = 0
    var drainCode: Int32 = 0
    func openPlayback(name: String, configuration: String?) -> Result<ALSAHandle, ALSACode> {
        playbackOpened = name
        return openResult
    }
    func write(_ handle: ALSAHandle, from buffer: UnsafeRawPointer, frames: Int) -> Int {
        let taken = writeSteps.isEmpty ? frames : min(frames, writeSteps.removeFirst())
        guard taken > 0 else { return taken }
        if hardware.format == .floatLE {
            written += UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Float.self), count: taken)
        } else {
            written += UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: Int16.self), count: taken)
                .map { Float($0) / 32768 }
        }
        return taken
    }
    func drain(_ handle: ALSAHandle) -> Int32 { drained += 1; return drainCode }
    func recover(_ handle: ALSAHandle, from code: Int32) -> Int32 { recovered.append(code); return recoverResult }
    func close(_ handle: ALSAHandle) { closed += 1 }
    func describe(_ code: Int32) -> String { "reason \(code)" }
    func devices(_ direction: ALSAError.Direction) -> Result<[ALSADeviceHint], ALSACode> {
        listed.append(direction)
        return devices
    }
}

@Suite struct ALSAFakeLibraryTests {
    func read(_ source: ALSACaptureSource, count: Int = 1024) throws -> [Float] {
        var buffer = [Float](repeating: .nan, count: count)
        let n = try buffer.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        return Array(buffer[0..<n])
    }

    @Test func asksForMonoNearTheRateWithShortPeriodsAndTakesWhatTheDeviceOffers() throws {
        let alsa = ScriptedALSA()
        let source = try ALSACaptureSource(device: "hw:2,0", rate: 96000, library: alsa)
        #expect(alsa.silenced >= 1)
        #expect(alsa.openedName == "plughw:2,0")  // through the plug layer
        #expect(alsa.requested?.rate == 96000)
        #expect(alsa.requested?.formats == [.floatLE, .s16LE])
        #expect((alsa.requested?.periodFrames ?? .max) <= 960)  // ≤ 10 ms at 96 kHz
        #expect((alsa.requested?.serverPeriodFrames ?? .max) <= 1920)  // ≤ 20 ms from a sound server
        #expect(source.sampleRate == 44100)  // what the device agreed to
        #expect(source.label == "ALSA hw:2,0, 44100 Hz")
    }

    @Test func readsNeverAskForMoreThanAPeriod() throws {
        let alsa = ScriptedALSA()
        alsa.steps = [.frames(0.25)]
        let source = try ALSACaptureSource(library: alsa)
        let got = try read(source, count: 4096)
        #expect(got.count == 220)
        #expect(got.allSatisfy { $0 == 0.25 })
        #expect(alsa.readSizes == [220])
    }

    @Test func overrunIsRecoveredAndTheStreamGoesOn() throws {
        let alsa = ScriptedALSA()
        alsa.steps = [.frames(0.5), .code(-EPIPE), .frames(0.125)]
        let source = try ALSACaptureSource(library: alsa)
        #expect(try read(source).first == 0.5)
        #expect(try read(source).first == 0.125)
        #expect(alsa.recovered == [-EPIPE])
        #expect(source.overruns == 1)
    }

    @Test func deviceThatVanishesMidRunThrowsNamingIt() throws {
        let alsa = ScriptedALSA()
        alsa.steps = [.frames(0.5), .code(-ENODEV)]
        let source = try ALSACaptureSource(device: "usbmic", library: alsa)
        _ = try read(source)
        do {
            _ = try read(source)
            Issue.record("a vanished device read on")
        } catch let error as ALSAError {
            #expect(error.kind == .vanished)
            #expect(error.description == "capture device \"usbmic\" stopped delivering audio (ALSA: reason \(-ENODEV))")
        }
    }

    @Test func overrunThatCannotBeRecoveredThrows() throws {
        let alsa = ScriptedALSA()
        alsa.steps = [.code(-EPIPE)]
        alsa.recoverResult = -EIO
        let source = try ALSACaptureSource(library: alsa)
        #expect(throws: ALSAError(kind: .vanished, device: "default", code: -EIO, reason: "reason \(-EIO)")) {
            _ = try read(source)
        }
    }

    @Test func busyDeviceIsItsOwnKind() {
        let alsa = ScriptedALSA()
        alsa.openResult = .failure(ALSACode(-EBUSY))
        #expect(throws: ALSAError(kind: .busy, device: "hw:0", code: -EBUSY, reason: "reason \(-EBUSY)")) {
            _ = try ALSACaptureSource(device: "hw:0", library: alsa)
        }
    }

    @Test func unsupportedSetupClosesTheDeviceAndSaysSo() {
        let alsa = ScriptedALSA()
        alsa.configureCode = -EINVAL
        #expect(throws: ALSAError.self) { _ = try ALSACaptureSource(device: "odd", library: alsa) }
        #expect(alsa.closed == 1)
    }

    @Test func sixteenBitDevicesAreScaledToFloat() throws {
        let alsa = ScriptedALSA()
        alsa.hardware.format = .s16LE
        alsa.steps = [.frames(-0.5)]
        let source = try ALSACaptureSource(library: alsa)
        #expect(try read(source) == [Float](repeating: -0.5, count: 220))
    }

    @Test func closesTheDeviceWhenReleased() throws {
        let alsa = ScriptedALSA()
        do { _ = try ALSACaptureSource(library: alsa) }
        #expect(alsa.closed == 1)
    }

    @Test(arguments: [ALSAError.Direction.capture, .playback])
    func listsDevicesOrSaysWhyNot(direction: ALSAError.Direction) throws {
        let alsa = ScriptedALSA()
        alsa.devices = .success([ALSADeviceHint(name: "default", description: "Default ALSA Output")])
        #expect(try ALSACaptureSource.devices(direction, library: alsa).map(\.name) == ["default"])
        #expect(alsa.listed == [direction])
        alsa.devices = .failure(ALSACode(-ENOENT))
        #expect(throws: ALSAError(kind: .listing, device: "", code: -ENOENT, reason: "reason -2", direction: direction)) {
            _ = try ALSACaptureSource.devices(direction, library: alsa)
        }
    }

    @Test(arguments: [ALSAError.Direction.capture, .playback])
    func realDeviceListHasOneLineDescriptions(direction: ALSAError.Direction) throws {
        // alsa-lib's own hints for this machine (at least the configuration's "null" and "default").
        let devices = try ALSACaptureSource.devices(direction)
        #expect(!devices.isEmpty)
        #expect(devices.allSatisfy { !$0.name.isEmpty && !$0.description.contains("\n") })
    }
}
