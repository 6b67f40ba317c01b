/// One conversion on the requestor's side, as a value: no Xlib, no clock.
///
/// ICCCM §2.4 (the owner's answer), §2.7.2 (INCR). A budget is a promise to the owner as
/// much as to the reader: a transfer that has started is finished, never abandoned. Owners
/// such as xclip serve nobody else while an INCR transfer waits for its requestor, and have
/// no timeout, so walking away mid-transfer would kill the owner's clipboard. What does not
/// fit is therefore decided before anything moves where possible — a whole reply's size is
/// known before it is read, an INCR announcement carries a size — and otherwise drained: the
/// remaining chunks are taken and dropped, and the failure is reported at the end.
///
/// ```swift
/// var read = SelectionRead(target: "UTF8_STRING", budget: 1 << 20)
/// read.replied(PropertyShape(type: "INCR", format: 32, byteCount: 4))  // .readAnnouncement
/// read.announced(size: 70 << 20)          // .startIncremental — draining: over the budget
/// read.chunk(type: "UTF8_STRING", format: 8, byteCount: 1_048_575)  // .discardChunk
/// read.chunk(type: "UTF8_STRING", format: 8, byteCount: 0)  // .deliverFailure(.tooLarge)
/// ```
struct SelectionRead: Sendable, Equatable {
  /// What the owner's reply property looks like before it is read.
  struct PropertyShape: Sendable, Equatable {
    /// The property's type name (`INCR`, `UTF8_STRING`, …).
    var type: String
    /// 8, 16 or 32.
    var format: Int
    /// Its size in bytes.
    var byteCount: Int
  }

  enum State: Sendable, Equatable {
    /// The conversion was asked for; the owner has not answered.
    case awaitingReply
    /// The owner announced INCR; the announcement is being read.
    case announced
    /// INCR chunks are kept.
    case receiving
    /// INCR chunks are taken and dropped; `failure` is reported when the last one comes.
    case draining(failure: X11Error)
    /// The caller was already answered (a step timed out); chunks that still come are taken
    /// and dropped so that the owner can finish.
    case orphaned
    /// Nothing more will happen.
    case finished
  }

  enum Action: Sendable, Equatable {
    /// Fail the read; the property needs nothing more.
    case fail(X11Error)
    /// Delete the reply property without reading it, then fail.
    case discardWhole(X11Error)
    /// Read the reply property (deleting it) and deliver it.
    case readWhole
    /// Read the INCR announcement (deleting it starts the transfer).
    case readAnnouncement
    /// The transfer has started: wait for chunks.
    case startIncremental
    /// Keep this chunk.
    case keepChunk
    /// Drop this chunk (it was already read and deleted).
    case discardChunk
    /// The transfer is complete: deliver what was kept.
    case deliver
    /// The drained transfer is complete: report its failure now.
    case deliverFailure(X11Error)
    /// Answer the caller with this failure, but keep draining whatever still comes.
    case failAndDrain(X11Error)
    /// Nothing to do.
    case ignore
  }

  /// The target asked for.
  let target: String
  /// The most bytes the reader keeps; `nil` for no limit.
  let budget: Int?
  private(set) var state = State.awaitingReply
  /// The bytes kept so far.
  private(set) var keptBytes = 0
  /// The data's type and format, from the whole reply or the first chunk.
  private(set) var dataType: String?
  private(set) var dataFormat: Int?

  init(target: String, budget: Int?) {
    self.target = target
    self.budget = budget
  }

  /// The owner's `SelectionNotify`: `nil` when it named no property (a refusal), else the
  /// shape of the property it wrote; `missing` when it named one that does not exist.
  mutating func replied(_ shape: PropertyShape?, selection: Selection, missing: Bool = false)
    -> Action
  {
    guard state == .awaitingReply else { return .ignore }
    guard let shape else {
      state = .finished
      return missing
        ? .fail(.malformedReply("the owner announced \(target) but wrote no property"))
        : .fail(.refused(selection: selection, target: target))
    }
    if shape.type == "INCR" {
      state = .announced
      return .readAnnouncement
    }
    state = .finished
    if let problem = ReplyFit.problem(target: target, type: shape.type, format: shape.format) {
      return .discardWhole(.malformedReply(problem))
    }
    if let budget, shape.byteCount > budget {
      return .discardWhole(.tooLarge(limit: budget))
    }
    dataType = shape.type
    dataFormat = shape.format
    keptBytes = shape.byteCount
    return .readWhole
  }

  /// The INCR announcement was read: `size` is the lower bound it gave, if any (xclip gives
  /// none). A size past the budget is decided now: the transfer is drained from the start.
  mutating func announced(size: Int?) -> Action {
    guard state == .announced else { return .ignore }
    if let budget, let size, size > budget {
      state = .draining(failure: .tooLarge(limit: budget))
    } else {
      state = .receiving
    }
    return .startIncremental
  }

  /// A chunk was read (and deleted): its type, format and size. A zero-length chunk ends the
  /// transfer.
  mutating func chunk(type: String, format: Int, byteCount: Int) -> Action {
    switch state {
    case .receiving:
      if byteCount == 0 {
        state = .finished
        return .deliver
      }
      if dataType == nil {
        if let problem = ReplyFit.problem(target: target, type: type, format: format) {
          state = .draining(failure: .malformedReply(problem))
          return .discardChunk
        }
        dataType = type
        dataFormat = format
      }
      if let budget, keptBytes + byteCount > budget {
        state = .draining(failure: .tooLarge(limit: budget))
        return .discardChunk
      }
      keptBytes += byteCount
      return .keepChunk
    case .draining(let failure):
      guard byteCount == 0 else { return .discardChunk }
      state = .finished
      return .deliverFailure(failure)
    case .orphaned:
      if byteCount == 0 { state = .finished }
      return .discardChunk
    case .awaitingReply, .announced, .finished:
      return .ignore
    }
  }

  /// The current step's deadline passed.
  mutating func stepTimedOut(_ step: String) -> Action {
    switch state {
    case .awaitingReply, .announced:
      state = .finished
      return .fail(.timedOut(step))
    case .receiving, .draining:
      // The owner may still be sending: keep taking its chunks, so it can finish.
      state = .orphaned
      return .failAndDrain(.timedOut(step))
    case .orphaned:
      state = .finished
      return .ignore
    case .finished:
      return .ignore
    }
  }

  /// Whether a chunk may still arrive for this read.
  var expectsChunks: Bool {
    switch state {
    case .receiving, .draining, .orphaned: true
    case .awaitingReply, .announced, .finished: false
    }
  }
}

/// Whether a reply's type and format fit the target asked for.
///
/// An owner that answers `UTF8_STRING` with 32-bit integers, or `image/png` in format 32,
/// has sent something the target's readers cannot take; passing it on would print garbage
/// with a status of success.
enum ReplyFit {
  /// Types an owner may give a text target's data.
  static let textTypes: Set<String> = [
    "UTF8_STRING", "STRING", "TEXT", "COMPOUND_TEXT", "C_STRING",
  ]

  /// Why the reply does not fit, or `nil` when it does.
  static func problem(target: String, type: String, format: Int) -> String? {
    let fits: Bool
    switch target {
    case "TARGETS":
      fits = format == 32 && (type == "ATOM" || type == "TARGETS")
    case "TIMESTAMP":
      fits = format == 32 && type == "INTEGER"
    case _ where isText(target):
      fits = format == 8 && (textTypes.contains(type) || type.hasPrefix("text/") || type == target)
    case _ where target.contains("/"):
      fits = format == 8
    default:
      fits = true
    }
    return fits ? nil : "the owner answered \(target) with \(type)/\(format) data"
  }

  /// Whether `target` names text.
  static func isText(_ target: String) -> Bool {
    textTypes.contains(target) || target.hasPrefix("text/")
  }
}
