import Animation
import Geometry

/// The thumbnail grid: square cells, `columns` per row, `spacing` between cells and at the edges,
/// scrolled vertically with UIScrollView's physics (1:1 drag, rubber band, deceleration, spring back).
/// Others read it; only the `Scene` that owns it moves it.
public final class GridView: TransitionEnd {
    public let screenSize: Size
    public let columns: Int
    public let spacing: Double
    /// The side of a square cell.
    public let cellSize: Double
    public private(set) var photoCount: Int
    public private(set) var hiddenIndex: Int?
    /// The shown scroll offset (positive: content moved up), rubber band included.
    public private(set) var offset: Double = 0

    private let decelerationRate: Double
    private let bounce: Spring

    private enum Motion {
        case resting
        /// A finger holds the content: `rawStart` is the unbanded offset when it touched down.
        case dragging(rawStart: Double, fingerStart: Double)
        /// Coasting or springing back after the finger lifted.
        case released(ScrollRelease)
    }

    private var motion = Motion.resting

    public init(parameters: SceneParameters.Grid, screenSize: Size, photoCount: Int) {
        self.screenSize = screenSize
        columns = max(parameters.columns, 1)
        spacing = max(parameters.spacing, 0)
        cellSize = max((screenSize.width - Double(columns + 1) * spacing) / Double(columns), 1)
        self.photoCount = max(photoCount, 0)
        decelerationRate = parameters.decelerationRate
        bounce = parameters.bounce
    }

    // MARK: Layout

    public var rowCount: Int { (photoCount + columns - 1) / columns }

    /// Height of all rows with the spacing above, between and below them.
    public var contentHeight: Double { spacing + Double(rowCount) * (cellSize + spacing) }

    /// The largest resting offset; 0 when the content is shorter than the screen.
    public var maxOffset: Double { max(contentHeight - screenSize.height, 0) }

    /// Cell `index` in content coordinates (offset 0).
    public func contentRect(of index: Int) -> Rect {
        let row = index / columns, column = index % columns
        return Rect(x: spacing + Double(column) * (cellSize + spacing),
                    y: spacing + Double(row) * (cellSize + spacing),
                    width: cellSize, height: cellSize)
    }

    /// Cell `index` on screen at the current offset (may reach past the screen).
    public func cellRect(of index: Int) -> Rect {
        contentRect(of: index).offsetBy(dx: 0, dy: -offset)
    }

    /// The photo whose cell contains the screen point, if any (not the spacing between cells).
    public func index(at point: Point) -> Int? {
        let step = cellSize + spacing
        let x = point.x - spacing, y = point.y + offset - spacing
        guard x >= 0, y >= 0 else { return nil }
        let column = Int(saturating: x / step), row = Int(saturating: y / step)
        guard column < columns, row < rowCount,
              x - Double(column) * step < cellSize, y - Double(row) * step < cellSize else { return nil }
        let index = row * columns + column
        return index < photoCount ? index : nil
    }

    /// The cells at least partly on screen, hidden one included.
    public func visibleCells() -> [GridCell] {
        guard photoCount > 0 else { return [] }
        let step = cellSize + spacing
        let firstRow = max(Int(flooringSaturating: (offset - spacing) / step), 0)
        let lastRow = min(Int(flooringSaturating: (offset + screenSize.height - spacing) / step), rowCount - 1)
        guard firstRow <= lastRow else { return [] }
        var cells: [GridCell] = []
        for row in firstRow...lastRow {
            for column in 0..<columns {
                let index = row * columns + column
                guard index < photoCount else { break }
                let rect = cellRect(of: index)
                if rect.maxY > 0, rect.minY < screenSize.height {
                    cells.append(GridCell(index: index, rect: rect))
                }
            }
        }
        return cells
    }

    // MARK: TransitionEnd

    public func frame(of index: Int) -> Rect? {
        guard index >= 0, index < photoCount else { return nil }
        return cellRect(of: index)
    }

    public func setHidden(_ index: Int?) {
        hiddenIndex = index
    }

    // MARK: Library changes

    func setPhotoCount(_ count: Int) {
        photoCount = max(count, 0)
        if let hidden = hiddenIndex, hidden >= photoCount { hiddenIndex = nil }
        if case .dragging = motion { return }
        motion = .resting
        offset = min(max(offset, 0), maxOffset)
    }

    /// Back to the first row without animation (the kiosk's idle return), unless a finger holds it.
    func scrollToTop() {
        if case .dragging = motion { return }
        jumpToTop()
    }

    /// Back to the first row at once, even under a finger (closing time: that touch counts no more).
    func jumpToTop() {
        motion = .resting
        offset = 0
    }

    /// Scrolls without animation so the cell is fully visible; centred if it was out of view.
    func scrollToShow(_ index: Int) {
        guard index >= 0, index < photoCount else { return }
        let cell = contentRect(of: index)
        let top = offset, bottom = offset + screenSize.height
        var target = offset
        if cell.maxY <= top || cell.minY >= bottom {
            target = cell.midY - screenSize.height / 2
        } else if cell.minY < top {
            target = cell.minY - spacing
        } else if cell.maxY > bottom {
            target = cell.maxY + spacing - screenSize.height
        } else {
            return
        }
        if case .dragging = motion { return }
        motion = .resting
        offset = min(max(target, 0), maxOffset)
    }

    // MARK: Scrolling

    /// True while the content moves on its own (coasting or springing back).
    public var isMoving: Bool {
        switch motion {
        case .released: true
        case .resting, .dragging: false
        }
    }

    public var isDragging: Bool {
        if case .dragging = motion { return true }
        return false
    }

    /// Brings the motion up to `time`.
    func update(to time: Double) {
        guard case let .released(release) = motion else { return }
        offset = release.position(at: time)
        if release.isFinished(at: time) { motion = .resting }
    }

    /// A finger touched down at screen height `y`: the content stops where it is and follows it.
    func beginDrag(fingerY y: Double) {
        let raw = RubberBand.unclamp(offset, lower: 0, upper: maxOffset, dimension: screenSize.height)
        motion = .dragging(rawStart: raw, fingerStart: y)
    }

    /// The finger is at screen height `y`: 1:1, rubber-banded past the ends.
    func drag(fingerY y: Double) {
        guard case let .dragging(rawStart, fingerStart) = motion else { return }
        offset = RubberBand.clamp(rawStart - (y - fingerStart), lower: 0, upper: maxOffset,
                                  dimension: screenSize.height)
    }

    /// The finger lifted moving at `velocityY` px/s: coast, spring back, or rest.
    func endDrag(velocityY: Double, at time: Double) {
        guard isDragging else { return }
        let release = ScrollRelease(position: offset, velocity: -velocityY, time: time, lower: 0, upper: maxOffset,
                                    decelerationRate: decelerationRate, bounce: bounce, dimension: screenSize.height)
        motion = release.isFinished(at: time) ? .resting : .released(release)
    }
}
