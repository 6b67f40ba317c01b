import Testing
@testable import UniformTypeIdentifiers
@Test func placeholder() { #expect(UTType.jpeg.conforms(to: .image)) }
