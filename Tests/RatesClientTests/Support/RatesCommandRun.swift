import Foundation
import RatesTestSupport
import Testing

/// One run of the built `rates` executable, as a user would type it: its exit status and what it printed.
struct RatesCommandRun {
    var status: Int32
    var standardOutput: String
    var standardError: String

    /// The lines of standard output.
    var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }

    /// Runs `rates` with `arguments` to its end (within ``patience``), without the `RATES_*`
    /// variables of the environment the tests run in.
    static func run(_ arguments: [String]) async throws -> RatesCommandRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rates-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout")
        let errors = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

        let process = Process()
        process.executableURL = try BuiltExecutable.url("rates")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RATES_") }
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try process.run()
        let deadline = ContinuousClock.now + patience
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                Issue.record("rates \(arguments.joined(separator: " ")) still ran after \(patience)")
                break
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        return RatesCommandRun(
            status: process.terminationStatus, standardOutput: try String(contentsOf: output, encoding: .utf8),
            standardError: try String(contentsOf: errors, encoding: .utf8))
    }
}
