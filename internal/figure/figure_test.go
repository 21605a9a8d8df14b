package figure

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

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
