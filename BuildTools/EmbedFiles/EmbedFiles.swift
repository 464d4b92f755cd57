import Foundation
import PackagePlugin

/// Embeds a target's non-Swift files in its code: every file in the target's folder that is not
/// a `.swift` file or hidden (the target `exclude`s their folders, e.g. `JS`) becomes a
/// `[UInt8]` of `EmbeddedFiles` (EmbedFilesTool writes it). What SwiftPM's `.embedInCode` does,
/// but written as string literals, which compile in a fraction of the time.
@main
struct EmbedFiles: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let module = target as? SourceModuleTarget else { return [] }
    let files = try Self.embedded(in: module.directoryURL)
    guard !files.isEmpty else { return [] }
    let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
    return [
      .buildCommand(
        displayName: "Embedding \(files.count) files in \(target.name)",
        executable: try context.tool(named: "EmbedFilesTool").url,
        arguments: [output.path] + files.map(\.path), inputFiles: files, outputFiles: [output])
    ]
  }

  /// The files under `folder` to embed, sorted by path.
  static func embedded(in folder: URL) throws -> [URL] {
    let keys: [URLResourceKey] = [.isRegularFileKey]
    guard
      let walk = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    else { return [] }
    var files: [URL] = []
    for case let url as URL in walk where url.pathExtension != "swift" {
      if try url.resourceValues(forKeys: Set(keys)).isRegularFile == true { files.append(url) }
    }
    return files.sorted { $0.path < $1.path }
  }
}
