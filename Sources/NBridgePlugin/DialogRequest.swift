/// A file chooser asked of the window (`WindowHost.chooseFiles`) or of the desktop's portal.
public struct FileDialogRequest: Sendable, Equatable {
  /// What the user chooses.
  public enum Mode: Sendable, Equatable {
    /// Existing files to open.
    case open
    /// Folders to open.
    case folder
    /// A file to save to (it may not exist yet).
    case save
  }

  /// Files, folders, or a file to save.
  public var mode: Mode
  /// Whether several may be chosen (`open` and `folder`).
  public var multiple: Bool
  /// The dialog's title (nil: the toolkit's).
  public var title: String?
  /// The folder shown first (nil: the toolkit's choice).
  public var folder: String?
  /// The file name proposed (`save`).
  public var name: String?
  /// The filters offered, the first one applied.
  public var filters: [FileFilter]

  /// A request; nil and empty fields leave the choice to the toolkit.
  public init(
    mode: Mode, multiple: Bool = false, title: String? = nil, folder: String? = nil, name: String? = nil,
    filters: [FileFilter] = []
  ) {
    self.mode = mode
    self.multiple = multiple
    self.title = title
    self.folder = folder
    self.name = name
    self.filters = filters
  }
}

/// A named filter of a file chooser: the files whose names end in one of `extensions`.
public struct FileFilter: Sendable, Equatable {
  /// What the user sees (`Text files`).
  public var name: String
  /// File name extensions without the dot (`txt`); `*` for every file.
  public var extensions: [String]

  /// A filter named `name` for `extensions`.
  public init(name: String, extensions: [String]) {
    self.name = name
    self.extensions = extensions
  }

  /// The glob patterns of its extensions (`*.txt`), `*` for every file.
  public var patterns: [String] { extensions.map { $0 == "*" ? "*" : "*." + $0 } }
}

/// A message dialog asked of the window (`WindowHost.showMessage`).
public struct MessageDialogRequest: Sendable, Equatable {
  /// The dialog's icon and tone.
  public enum Kind: String, Sendable, Equatable {
    /// Information for the user.
    case info
    /// A warning for the user.
    case warning
    /// An error the user should know of.
    case error
    /// A question the user answers.
    case question
  }

  /// The dialog's kind.
  public var kind: Kind
  /// The dialog's title (nil: none).
  public var title: String?
  /// The text the dialog shows.
  public var message: String
  /// The buttons' labels, in order.
  public var buttons: [String]
  /// The index of the button Return presses (nil: none).
  public var defaultButton: Int?

  /// A message dialog.
  public init(kind: Kind, title: String?, message: String, buttons: [String], defaultButton: Int?) {
    self.kind = kind
    self.title = title
    self.message = message
    self.buttons = buttons
    self.defaultButton = defaultButton
  }
}
