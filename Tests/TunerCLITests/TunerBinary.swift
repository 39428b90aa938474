import Foundation
import Synchronization
import Testing
import TunerTestSupport

/// The built `tuner` executable, run as a user would run it.
enum TunerBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutLines: [Substring] { stdout.split(separator: "\n", omittingEmptySubsequences: true) }
    }

    enum Failure: Error, CustomStringConvertible {
        case notBuilt([String])
        case timedOut([String])
        var description: String {
            switch self {
            case .notBuilt(let places):
                return "the tuner executable was not found (looked at \(places.joined(separator: ", "))); run 'swift build' first"
            case .timedOut(let arguments): return "tuner \(arguments.joined(separator: " ")) did not finish in time"
            }
        }
    }

    /// This package's folder (the one with Package.swift), from this source file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `tuner` next to the test bundle (`.build/<triple>/debug/`), else `.build/debug/tuner` of this package.
    static func location() throws -> URL {
        var places: [URL] = []
        if let executable = Bundle.main.executableURL {
            places.append(executable.deletingLastPathComponent().appendingPathComponent("tuner"))
        }
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0])
        places.append(argument0.deletingLastPathComponent().appendingPathComponent("tuner"))
        places.append(packageRoot.appendingPathComponent(".build/debug/tuner"))
        for place in places where FileManager.default.isExecutableFile(atPath: place.path) { return place }
        throw Failure.notBuilt(places.map(\.path))
    }

    /// Runs `tuner arguments`, reading both pipes to their end; fails the test after `timeout` seconds.
    /// The child gets this process's environment with `environment` over it, and the tests' own config
    /// folder (`TestEnvironment.configHome`) unless `environment` names one.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 120) throws -> Result {
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return try execute(location(), arguments, environment: merged, timeout: timeout)
    }

    /// Runs a bash command line with `$TUNER` set to the executable (for pipelines such as `| head -1`).
    static func shell(_ script: String, timeout: Double = 120) throws -> Result {
        let environment = ProcessInfo.processInfo.environment.merging(["TUNER": try location().path]) { $1 }
        return try execute(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: environment, timeout: timeout)
    }

    private static func execute(_ executable: URL, _ arguments: [String], environment: [String: String],
                                timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = TestEnvironment.isolated(environment)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()

        // Both pipes are drained at once, so a child that fills one of them never blocks.
        let errorData = Mutex<Data>(Data())
        let errorDone = DispatchSemaphore(value: 0)
        let errorHandle = err.fileHandleForReading
        Thread.detachNewThread {
            let data = errorHandle.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            errorDone.signal()
        }
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        errorDone.wait()
        process.waitUntilExit()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL {
            throw Failure.timedOut(arguments)
        }
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
