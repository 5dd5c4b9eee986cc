import Foundation

/// The executables of this package (`rates-relay`, `rates`), which `swift build --build-tests`
/// and `swift test` build next to the test bundle; tests run them as a user would.
package enum BuiltExecutable {
    /// The executable `name` from the build that built the tests, or an error saying how to build it.
    package static func url(_ name: String) throws -> URL {
        var directories = [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        // On macOS the tests run inside `xctest`; the products directory holds the `.xctest` bundle.
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Missing(name: name, searched: directories.map(\.path))
    }

    /// An executable that is not where the build puts it.
    package struct Missing: Error, CustomStringConvertible {
        package var name: String
        package var searched: [String]
        package var description: String {
            "the executable '\(name)' is not next to the test bundle (looked in \(searched.joined(separator: ", "))); "
                + "build it with `swift build --build-tests` or run `swift test`"
        }
    }
}
