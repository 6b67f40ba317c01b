// The lookups the benchmark times and callgrind counts: each a name (the `--lookup` and
// `--profile` mode), eight inputs of one kind, and a check that the inputs are of that kind.
import UniformTypeIdentifiers

struct LookupCase: Sendable {
  /// The mode name on the command line.
  var mode: String
  /// What the line of the table says.
  var label: String
  /// The aim, if any, printed beside the figure.
  var aim: String = ""
  /// One call, on input `index & 7`.
  var body: @Sendable (Int) -> Void
  /// Why the inputs are not of the kind the label says, or `nil` when they are.
  var problem: @Sendable () -> String? = { nil }
}

private let identifiers = [
  "public.jpeg", "public.png", "public.utf8-plain-text", "com.adobe.pdf", "public.json",
  "public.html", "public.mpeg-4", "public.zip-archive",
]
private let extensions = ["jpg", "png", "txt", "pdf", "json", "html", "mp4", "zip"]
private let mimeTypes = [
  "image/jpeg", "image/png", "text/plain", "application/pdf", "application/json", "text/html",
  "video/mp4", "application/zip",
]
private let mimeDatabaseExtensions = ["wad", "apk", "deb", "rpm", "flac", "mkv", "xcf", "blend"]
private let mimeDatabaseMIMETypes = [
  "application/x-doom-wad", "application/vnd.oasis.opendocument.text",
  "application/vnd.debian.binary-package", "application/x-rpm", "audio/flac", "video/x-matroska",
  "image/x-xcf", "application/x-blender",
]
private let unknownExtensions = [
  "turtle", "ferryx", "qqx", "zzq", "notatype", "abcdefgh", "x9y", "unknownext",
]
private let unknownMIMETypes = [
  "application/x-ferry-none", "image/x-ferry-none", "text/x-ferry-none", "audio/x-ferry-none",
  "video/x-ferry-none", "application/x-ferry-turtle", "x-ferry/none", "application/vnd.ferry.none",
]
/// Extensions with a supertype that is not the default `public.data`; `mp4` as audio is not
/// the tag's first claimant.
private let conformingPairs: [(String, UTType)] = [
  ("mp4", .audio), ("jpg", .image), ("txt", .text), ("html", .text), ("mp4", .movie),
  ("png", .image), ("json", .text), ("zip", .archive),
]

/// `nil` when every input resolves to a type from `source`, else what went wrong.
private func expect(_ inputs: [String], source: String, _ lookup: (String) -> UTType?) -> String? {
  for input in inputs {
    let type = lookup(input)
    let actual = type.map { $0.isDynamic ? "dynamic" : $0._declarationSource } ?? "nil"
    if actual != source {
      return "\(input) is \(type?.identifier ?? "nil") (\(actual)), not \(source)"
    }
  }
  return nil
}

let lookupCases: [LookupCase] = [
  LookupCase(mode: "id", label: "lookup by identifier", aim: "aim < 200 ns") {
    blackHole(UTType(identifiers[$0 & 7]))
  },
  LookupCase(
    mode: "ext", label: "lookup by filename extension (system)", aim: "aim < 200 ns",
    body: { blackHole(UTType(filenameExtension: extensions[$0 & 7])) },
    problem: { expect(extensions, source: "system") { UTType(filenameExtension: $0) } }),
  LookupCase(
    mode: "mime", label: "lookup by MIME type (system)", aim: "aim < 200 ns",
    body: { blackHole(UTType(mimeType: mimeTypes[$0 & 7])) },
    problem: { expect(mimeTypes, source: "system") { UTType(mimeType: $0) } }),
  LookupCase(
    mode: "ext-mimedb", label: "lookup by extension (MIME database type)", aim: "aim < 200 ns",
    body: { blackHole(UTType(filenameExtension: mimeDatabaseExtensions[$0 & 7])) },
    problem: {
      expect(mimeDatabaseExtensions, source: "shared-mime-info database") {
        UTType(filenameExtension: $0)
      }
    }),
  LookupCase(
    mode: "mime-mimedb", label: "lookup by MIME type (MIME database type)", aim: "aim < 200 ns",
    body: { blackHole(UTType(mimeType: mimeDatabaseMIMETypes[$0 & 7])) },
    problem: {
      expect(mimeDatabaseMIMETypes, source: "shared-mime-info database") { UTType(mimeType: $0) }
    }),
  LookupCase(
    mode: "ext-miss", label: "lookup by extension, unknown (dyn.)", aim: "aim < 200 ns",
    body: { blackHole(UTType(filenameExtension: unknownExtensions[$0 & 7])) },
    problem: { expect(unknownExtensions, source: "dynamic") { UTType(filenameExtension: $0) } }),
  LookupCase(
    mode: "mime-miss", label: "lookup by MIME type, unknown (dyn.)", aim: "aim < 200 ns",
    body: { blackHole(UTType(mimeType: unknownMIMETypes[$0 & 7])) },
    problem: { expect(unknownMIMETypes, source: "dynamic") { UTType(mimeType: $0) } }),
  LookupCase(
    mode: "ext-conforming", label: "extension conforming to (mp4 → audio, …)",
    aim: "aim < 200 ns",
    body: {
      let (tag, supertype) = conformingPairs[$0 & 7]
      blackHole(UTType(filenameExtension: tag, conformingTo: supertype))
    },
    problem: {
      for (tag, supertype) in conformingPairs {
        guard let type = UTType(filenameExtension: tag, conformingTo: supertype),
          type._declarationSource == "system", type.conforms(to: supertype)
        else { return "\(tag) conforming to \(supertype) is not a system type" }
      }
      return nil
    }),
  LookupCase(
    mode: "types", label: "types(tag:) by extension (system)",
    body: {
      let tag = extensions[$0 & 7]
      blackHole(UTType.types(tag: tag, tagClass: .filenameExtension, conformingTo: nil))
    }),
  LookupCase(mode: "conforms", label: "conforms(to:) (system types)") { _ in
    blackHole(UTType.jpeg.conforms(to: .data))
  },
]
