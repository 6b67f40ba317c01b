import Testing

/// Drag and drop: the XDND message codec, the target and source state machines, and real
/// drags against GTK (and between two of `DragWindows`' windows) on an Xvfb of their own.
/// Everything is nested here so that `swift test --filter DragAndDrop` runs all of it; the
/// windows' geometry and layout are `DragWindowsTests`'.
@Suite enum DragAndDropTests {}
