import Geometry

extension Bitmap {
    /// The centred `width` x `height` part of this bitmap (each at most this bitmap's side; a
    /// larger one is this side): an aspect-fill's crop cut once, as a panorama's thumbnail keeps
    /// the middle of its decode. This bitmap itself when it is that size already.
    public func centredCrop(width: Int, height: Int) -> Bitmap {
        let w = max(0, min(width, self.width)), h = max(0, min(height, self.height))
        guard w != self.width || h != self.height else { return self }
        var crop = Bitmap(width: w, height: h)
        crop.copy(from: self, sourceRect: PixelRect(x: (self.width - w) / 2, y: (self.height - h) / 2, width: w, height: h),
                  to: (0, 0))
        return crop
    }
}
