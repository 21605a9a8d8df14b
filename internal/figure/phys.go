package figure

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
)

// pngSignature begins every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// withResolution returns the PNG data with a pHYs chunk, right after its
// header chunk (IHDR), that gives dpi dots per inch on both axes (as
// pixels per metre, the unit PNG knows). Go's encoder writes none, and a
// PNG without one is sized by each reader's guess (often 72 or 96 dpi).
func withResolution(data []byte, dpi int) ([]byte, error) {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4 // signature, length, type, data, CRC
	if !bytes.HasPrefix(data, pngSignature) || len(data) < ihdrEnd || string(data[12:16]) != "IHDR" {
		return nil, errors.New("not a PNG that begins with its header")
	}
	ppm := uint32(math.Round(float64(dpi) / 0.0254))
	chunk := make([]byte, 0, 21)
	chunk = binary.BigEndian.AppendUint32(chunk, 9)
	chunk = append(chunk, "pHYs"...)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = binary.BigEndian.AppendUint32(chunk, ppm)
	chunk = append(chunk, 1) // the unit is the metre
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(chunk[4:]))
	out := make([]byte, 0, len(data)+len(chunk))
	out = append(out, data[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, data[ihdrEnd:]...), nil
}

// Resolution returns the dots per inch that the pHYs chunk of a PNG
// gives on each axis, and false when it has none in metres.
func Resolution(data []byte) (x, y float64, ok bool) {
	if !bytes.HasPrefix(data, pngSignature) {
		return 0, 0, false
	}
	for off := len(pngSignature); off+12 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[off:]))
		typ := string(data[off+4 : off+8])
		if off+12+n > len(data) {
			return 0, 0, false
		}
		body := data[off+8 : off+8+n]
		if typ == "pHYs" && n == 9 && body[8] == 1 {
			ppmX, ppmY := binary.BigEndian.Uint32(body), binary.BigEndian.Uint32(body[4:])
			return float64(ppmX) * 0.0254, float64(ppmY) * 0.0254, true
		}
		if typ == "IDAT" || typ == "IEND" {
			return 0, 0, false // pHYs must come before the image data
		}
		off += 12 + n
	}
	return 0, 0, false
}
