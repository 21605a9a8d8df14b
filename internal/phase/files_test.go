package phase

import (
	"bytes"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/nlsat/nlsat/internal/fragments"
)

// fixture is a small hand-made set of estimates over S and V.
func fixture() []Estimate {
	var es []Estimate
	b := PaperBand()
	add := func(f fragments.Fragment, m, n1, n2, sat, n int) {
		e := Estimate{Fragment: f, Point: Point{m, n1, n2}, N: n, Sat: sat, Unsat: n - sat, times: []time.Duration{time.Duration(m) * time.Millisecond}}
		e.finish(b)
		es = append(es, e)
	}
	for n1 := 6; n1 <= 8; n1++ {
		for m := 4; m <= 24; m += 2 {
			add(fragments.S, m, n1, 0, max(0, 100-m*5*6/n1), 100)
		}
	}
	for n2 := 3; n2 <= 4; n2++ {
		for n1 := 3; n1 <= 5; n1++ {
			for m := 3; m <= 30; m += 3 {
				add(fragments.V, m, n1, n2, max(0, 50-m*(8-n1)/2), 50)
			}
		}
	}
	return es
}

func TestPointsRoundTrip(t *testing.T) {
	es := fixture()
	var b1, b2 bytes.Buffer
	if err := WritePoints(&b1, es); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPoints(bytes.NewReader(b1.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	WritePoints(&b2, got)
	if b1.String() != b2.String() {
		t.Errorf("points.csv changed on a round trip:\n%s\n%s", b1.String(), b2.String())
	}
	var tb bytes.Buffer
	WriteTiming(&tb, es)
	if n, err := ReadTiming(&tb, got); err != nil || n != len(es) || got[5].MedianTime != es[5].MedianTime {
		t.Errorf("timing: matched %d of %d (%v), median %v want %v", n, len(es), err, got[5].MedianTime, es[5].MedianTime)
	}
}

func TestReadPointsErrors(t *testing.T) {
	h := strings.Join(PointsHeader, ",") + "\n"
	tests := []struct{ in, want string }{
		{"", "header"},
		{"a,b\n", "wrong number of fields"},
		{h + "Q,4,6,0,0.6,0,10,5,5,0,0.5,0.2,0.8,inside\n", "line 2"},
		{h + "S,4,6,0,0.6,0,10,5,4,0,0.5,0.2,0.8,inside\n", "not n = 10"},
		{h + "S,4,6,0,0.6,0,10,5,5,0,1.5,0.2,0.8,inside\n", "not a probability"},
		{h + "S,4,6,0,0.6,0,10,5,5,0,0.5,0.2,0.8,maybe\n", "verdict"},
	}
	for _, tt := range tests {
		if _, err := ReadPoints(strings.NewReader(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadPoints(%q) = %v, want an error with %q", tt.in, err, tt.want)
		}
	}
}

func FuzzReadPoints(f *testing.F) {
	var b bytes.Buffer
	WritePoints(&b, fixture()[:3])
	f.Add(b.String())
	f.Add(strings.Join(PointsHeader, ",") + "\nS,1,1,0,1,0,0,0,0,0,NaN,0,1,straddles\n")
	f.Fuzz(func(t *testing.T, in string) {
		es, err := ReadPoints(strings.NewReader(in))
		if err != nil {
			return
		}
		var w1, w2 bytes.Buffer
		WritePoints(&w1, es)
		es2, err := ReadPoints(bytes.NewReader(w1.Bytes()))
		if err != nil {
			t.Fatalf("cannot read back %q: %v", w1.String(), err)
		}
		WritePoints(&w2, es2)
		if w1.String() != w2.String() {
			t.Fatalf("not stable:\n%s\n%s", w1.String(), w2.String())
		}
	})
}

func TestRegionRoundTrip(t *testing.T) {
	cfg := Config{Fragment: fragments.V, Params: fragments.DefaultParams(), Band: PaperBand(), Seed: 9, Samples: 50}
	r := NewRegion(cfg, fixture(), "v1", "native")
	if len(r.Points) == 0 {
		t.Fatal("fixture has no point in the band")
	}
	for _, p := range r.Points {
		if !r.Band.Contains(p.PSat) {
			t.Errorf("point %v with P(sat) %v is outside the band", p.Point, p.PSat)
		}
	}
	var b bytes.Buffer
	if err := r.Write(&b); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRegion(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip:\ngot  %+v\nwant %+v", got, r)
	}
}

func FuzzReadRegion(f *testing.F) {
	var b bytes.Buffer
	NewRegion(Config{Fragment: fragments.S, Band: PaperBand()}, fixture(), "v", "s").Write(&b)
	f.Add(b.String())
	f.Add(`{"fragment":"S","points":[]}`)
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ReadRegion(strings.NewReader(in))
		if err != nil {
			return
		}
		if len(r.Points) == 0 || !r.FragmentOf().Valid() {
			t.Fatalf("accepted a region without points or fragment: %+v", r)
		}
	})
}

func TestFigures(t *testing.T) {
	figs, err := Figures(fixture(), FigureOptions{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range figs {
		names[f.Name] = true
		// One figure is rasterised at 300 dpi, the others at 75: PNGs at
		// 300 dpi are slow under the race detector.
		if f.Name != "psat-alpha-S" {
			f = lowRes(f)
		}
		checkFigure(t, f)
		if len(f.Table) < 10 {
			t.Errorf("%s: table has %d rows", f.Name, len(f.Table))
		}
	}
	for _, want := range []string{"psat-alpha-S", "time-alpha-S", "psat-alpha-V", "time-alpha-V", "heatmap-V"} {
		if !names[want] {
			t.Errorf("no figure %s among %v", want, names)
		}
	}
}

// checkFigure draws f as PNG and SVG and checks the PNG's size (300 dpi)
// and that much of it is drawn in many colours (curves, error bars, heat
// cells).
func checkFigure(t *testing.T, f Figure) {
	t.Helper()
	var b bytes.Buffer
	if err := f.Encode(&b, "png"); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	dpi := float64(f.size.DPI)
	w, h := int(float64(f.size.W/vg.Inch)*dpi+0.5), int(float64(f.size.H/vg.Inch)*dpi+0.5)
	if r := img.Bounds(); r.Dx() != w || r.Dy() != h || w < 3*f.size.DPI { // at least 3 inches wide
		t.Fatalf("%s: size %v, want %d×%d at %v dpi", f.Name, r, w, h, dpi)
	}
	drawn, colours := 0, map[color.RGBA]bool{}
	for y := 0; y < h; y += 3 {
		for x := 0; x < w; x += 3 {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c != (color.RGBA{255, 255, 255, 255}) {
				drawn++
			}
			colours[c] = true
		}
	}
	if drawn < w*h/9/50 || len(colours) < 20 {
		t.Errorf("%s: %d of %d sampled pixels drawn, in %d colours; looks blank", f.Name, drawn, w*h/9, len(colours))
	}
	checkSVG(t, f)
}

// lowRes returns f with its PNG at 75 dpi, for tests.
func lowRes(f Figure) Figure {
	f.size.DPI = 75
	return f
}

// checkSVG draws f as SVG and checks it is one of some size.
func checkSVG(t *testing.T, f Figure) {
	t.Helper()
	var svg bytes.Buffer
	if err := f.Encode(&svg, "svg"); err != nil || !strings.Contains(svg.String(), "<svg") || svg.Len() < 5000 {
		t.Errorf("%s: SVG of %d bytes (%v)", f.Name, svg.Len(), err)
	}
}

func TestDefaultRegions(t *testing.T) {
	for _, f := range fragments.All() {
		r, err := DefaultRegion(f)
		if err != nil {
			t.Fatal(err)
		}
		if r.FragmentOf() != f || len(r.Points) < 10 {
			t.Errorf("%v: region of %v with %d points", f, r.FragmentOf(), len(r.Points))
		}
		p := fragments.DefaultParams()
		if r.Params != p.SamplerParams {
			t.Errorf("%v: sampler parameters %+v are not the defaults", f, r.Params)
		}
		for _, pt := range r.Points {
			if !r.Band.Contains(pt.PSat) {
				t.Errorf("%v: point %+v outside the band %+v", f, pt.Point, r.Band)
			}
			if err := fragments.Validate(f, p, pt.M, pt.N1, pt.N2); err != nil {
				t.Errorf("%v: point %+v: %v", f, pt.Point, err)
			}
		}
	}
}
