extension X11Display {
  /// Sets how long a requestor may take over each step of an incremental (INCR) transfer
  /// this display's owner serves before the transfer is dropped (5 s unless set).
  ///
  /// - Parameter timeout: More than zero.
  public func setServingStepTimeout(_ timeout: Duration) async {
    _ = try? await loop.perform { session in session.owner.stepTimeout = timeout }
  }

  /// Sets the size of the INCR chunks this display's owner sends, and so the largest payload
  /// it sends in one request (1 MiB unless set; at most what the server takes): for the
  /// benchmark that weighs chunk sizes (`Scripts/bench-x11 --only chunks`).
  ///
  /// - Parameter bytes: More than zero.
  package func setServingChunkBytes(_ bytes: Int) async {
    _ = try? await loop.perform { session in session.owner.requestedChunkBytes = bytes }
  }
}
