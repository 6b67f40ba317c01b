import Testing

/// Drag and drop: the XDND message codec, the target and source state machines, the windows'
/// geometry and layout, and real drags against GTK on an Xvfb of their own. Everything is
/// nested here so that `swift test --filter DragAndDrop` runs all of it.
@Suite enum DragAndDropTests {}
