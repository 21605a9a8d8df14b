package figure

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func TestEncode(t *testing.T) {
	p := NewPlot("title", "x", "y")
	if err := AddCurve(p, []CurvePoint{{X: 1, Y: 0.5, Lo: 0.4, Hi: 0.6}, {X: 2, Y: 0.3, Lo: 0.2, Hi: 0.4}}, true, CurveColor(0, 2), "a"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Encode(&b, "png", p.Draw); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 800 || h != 500 {
		t.Errorf("PNG of %d×%d pixels, want 800×500", w, h)
	}
	b.Reset()
	if err := Encode(&b, "svg", p.Draw); err != nil || !strings.Contains(b.String(), "<svg") {
		t.Errorf("SVG: %v, %.40q", err, b.String())
	}
	if err := Encode(&b, "gif", func(draw.Canvas) {}); err == nil || !strings.Contains(err.Error(), "png, svg") {
		t.Errorf("gif: got %v, want an error listing the formats", err)
	}
}

func TestEncodeSizePrint(t *testing.T) {
	var b bytes.Buffer
	s := Size{W: 2 * vg.Inch, H: 1 * vg.Inch, DPI: Print}
	if err := EncodeSize(&b, "png", s, func(draw.Canvas) {}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 600 || h != 300 {
		t.Errorf("2×1 inches at 300 dpi: %d×%d pixels, want 600×300", w, h)
	}
}

func TestCurveColorsDiffer(t *testing.T) {
	seen := map[[4]uint32]bool{}
	for i := range 8 {
		r, g, b, a := CurveColor(i, 8).RGBA()
		seen[[4]uint32{r, g, b, a}] = true
	}
	if len(seen) != 8 {
		t.Errorf("8 curves have %d distinct colours", len(seen))
	}
}

func TestStylesDiffer(t *testing.T) {
	colours, shapes := map[[4]uint32]bool{}, map[string]bool{}
	for i := range len(okabeIto) {
		r, g, b, a := Color(i).RGBA()
		colours[[4]uint32{r, g, b, a}] = true
		shapes[fmt.Sprintf("%T", Glyph(i))] = true
	}
	if len(colours) != len(okabeIto) || len(shapes) != len(glyphs) {
		t.Errorf("%d colours and %d shapes for %d curves", len(colours), len(shapes), len(okabeIto))
	}
}

func labels(ts []plot.Tick) (major []string, minor int) {
	for _, t := range ts {
		if t.IsMinor() {
			minor++
		} else {
			major = append(major, t.Label)
		}
	}
	return major, minor
}

func TestTicks(t *testing.T) {
	tests := []struct {
		t        Ticks
		min, max float64
		want     []string
	}{
		{Ticks{N: 6}, 0, 1, []string{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}},
		{Ticks{}, 0.3, 3.05, []string{"0.5", "1.0", "1.5", "2.0", "2.5", "3.0"}},
		{Ticks{Integer: true}, 1, 48, []string{"10", "20", "30", "40"}},
		{Ticks{Integer: true}, 2, 9, []string{"2", "3", "4", "5", "6", "7", "8", "9"}},
		{Ticks{Integer: true}, 2, 12, []string{"2", "4", "6", "8", "10", "12"}},
		{Ticks{}, 0, 26.7, []string{"0", "5", "10", "15", "20", "25"}},
		{Ticks{}, -0.5, 0.5, []string{"-0.4", "-0.2", "0.0", "0.2", "0.4"}},
		{Ticks{N: 6}, 0, 0.25, []string{"0.00", "0.05", "0.10", "0.15", "0.20", "0.25"}},
	}
	for _, tt := range tests {
		got, minor := labels(tt.t.Ticks(tt.min, tt.max))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%+v on [%v, %v]: got %v, want %v", tt.t, tt.min, tt.max, got, tt.want)
		}
		if len(got) < 3 || len(got) > max(tt.t.N, 8) || minor == 0 {
			t.Errorf("%+v on [%v, %v]: %d major ticks %v and %d minor", tt.t, tt.min, tt.max, len(got), got, minor)
		}
	}
	if ts := (Ticks{}).Ticks(1, 1); ts != nil {
		t.Errorf("an empty range has ticks %v", ts)
	}
}

func TestNice(t *testing.T) {
	tests := []struct {
		span    float64
		n       int
		integer bool
		want    float64
	}{
		{9.5, 20, false, 0.5},
		{24.7, 20, false, 2},
		{2.6, 20, false, 0.2},
		{78, 16, true, 5},
		{7, 16, true, 1},
		{0.9, 16, false, 0.1},
	}
	for _, tt := range tests {
		if got := Nice(tt.span, tt.n, tt.integer); got != tt.want {
			t.Errorf("Nice(%v, %d, %v) = %v, want %v", tt.span, tt.n, tt.integer, got, tt.want)
		}
	}
}

// TestPNGResolution: every PNG records its resolution in a pHYs chunk
// before its image data, which Go's decoder reads past and which gives
// back the DPI drawn at (300 for print, 100 for the screen canvas).
func TestPNGResolution(t *testing.T) {
	for _, dpi := range []int{Print, Screen.DPI, 72} {
		var b bytes.Buffer
		if err := EncodeSize(&b, "png", Size{W: vg.Inch, H: vg.Inch / 2, DPI: dpi}, func(draw.Canvas) {}); err != nil {
			t.Fatal(err)
		}
		x, y, ok := Resolution(b.Bytes())
		// Pixels per metre are whole: 300 dpi is 11811 per metre, 299.9994 dpi.
		if !ok || math.Abs(x-float64(dpi)) > 0.01 || x != y {
			t.Errorf("%d dpi: pHYs gives %v × %v (found %v)", dpi, x, y, ok)
		}
		img, err := png.Decode(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("%d dpi: the PNG no longer decodes: %v", dpi, err)
		}
		if w := img.Bounds().Dx(); w != dpi {
			t.Errorf("%d dpi: one inch is %d pixels", dpi, w)
		}
	}
	if _, _, ok := Resolution([]byte("\x89PNG\r\n\x1a\nnot chunks")); ok {
		t.Error("a broken PNG has a resolution")
	}
	if _, err := withResolution([]byte("GIF89a"), 300); err == nil {
		t.Error("withResolution accepted a GIF")
	}
}
