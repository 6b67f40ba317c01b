import UniformTypeIdentifiers
@main struct Bench { static func main() {
  print(UTType(filenameExtension: "jpg")!, UTType(filenameExtension: "turtle")!, UTType(mimeType: "image/x-foo", conformingTo: .image)!)
  print(UTType(filenameExtension: "mp4")!, UTType(filenameExtension: "mp4", conformingTo: .audio)!, UTType(filenameExtension: "plist")!)
  print(UTType(mimeType: "text/plain; charset=UTF-8")!, UTType(tag: "STRING", tagClass: .x11Target, conformingTo: nil)!)
  print(UTType(filenameExtension: "wad")!, UTType(filenameExtension: "wad")!.localizedDescription as Any, UTType(filenameExtension: "wad")!.supertypes)
  print(UTType(filenameExtension: "jfif")!, UTType.png.tags, UTType.jpeg.supertypes)
  print(UTType("dyn.ah62d4rv4ge81k7pwsv0gn")!.tags, UTType("dyn.ah62d4rv4ge81k7pwsv0gn")!.supertypes)
  print(UTType(mimeType: "text/x-csrc")!, UTType(mimeType: "application/vnd.oasis.opendocument.text")!.supertypes)
  print(UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil))
  print(UTType(tag: "image/png", tagClass: .x11Target, conformingTo: nil)!, UTType(tag: "FOO_BAR", tagClass: .x11Target, conformingTo: nil)!)
} }
