package cel

import (
	"testing"
)

// TestLibrary checks each library function a rule may call, with a rule
// that holds on the object below.
func TestLibrary(t *testing.T) {
	cases := []struct{ name, rule string }{
		// ext.Strings
		{"strings", `self.s.lowerAscii() == 'abc-def' && self.s.split('-') == ['ABC', 'def'] && self.s.indexOf('-') == 3 && self.s.substring(4) == 'def'`},
		{"strings format", `'%s has %d'.format([self.s, 2]) == 'ABC-def has 2'`},
		{"strings join and replace", `['a', 'b'].join('/') == 'a/b' && self.s.replace('-', '_') == 'ABC_def'`},
		// standard
		{"matches", `self.s.matches('^[A-Z]+-[a-z]+$')`},
		{"size and in", `size(self.l) == 4 && 3 in self.l`},
		{"timestamps and durations", `timestamp('2024-01-01T00:00:00Z') + duration('1h') > timestamp('2024-01-01T00:30:00Z')`},
		// optional types
		{"optional", `optional.of(1).orValue(2) == 1 && optional.none().orValue(2) == 2`},
		// ext.Sets
		{"sets", `sets.contains(self.names, ['a']) && sets.intersects(self.names, ['b', 'z']) && sets.equivalent(self.names, ['b', 'a'])`},
		// ext.TwoVarComprehensions
		{"two-variable comprehensions", `self.l.all(i, v, v == self.l[i]) && self.l.transformList(i, v, v * i) == [0, 3, 2, 9]`},
		// ext.Network
		{"ip", `ip('10.0.0.1').family() == 4 && isIP('::1') && !isIP('10.0.0.300')`},
		{"cidr", `cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')) && !cidr('10.0.0.0/8').containsIP('11.0.0.1')`},
		// upstream's lists library
		{"isSorted", `[1, 2, 2, 3].isSorted() && !self.l.isSorted() && ['a', 'b'].isSorted()`},
		{"sum", `self.l.sum() == 11 && [1.5, 2.0].sum() == 3.5 && [duration('1s'), duration('2s')].sum() == duration('3s')`},
		{"min max", `self.l.min() == 1 && self.l.max() == 4 && ['b', 'a'].min() == 'a'`},
		{"indexOf", `self.l.indexOf(3) == 1 && self.l.lastIndexOf(1) == 2 && self.l.indexOf(9) == -1 && self.names.indexOf('b') == 1`},
		// upstream's quantity library
		{"quantity", `quantity('1') == quantity('1000m') && isQuantity('100Mi') && !isQuantity('1.5.5')`},
		{"quantity compare", `quantity('1Gi').isGreaterThan(quantity('1G')) && quantity('1m').isLessThan(quantity('1')) && quantity('2').compareTo(quantity('2000m')) == 0`},
		{"quantity arithmetic", `quantity('1').add(quantity('500m')) == quantity('1.5') && quantity('2k').sub(1000) == quantity('1k') && quantity('1').add(2).asInteger() == 3`},
		{"quantity conversions", `quantity('1.5').isInteger() == false && quantity('1.5').asApproximateFloat() == 1.5 && quantity('-3').sign() == -1`},
		// upstream's URL library
		{"url", `url('https://example.com:8443/a%20b?x=1&x=2').getScheme() == 'https' && isURL('/path') && !isURL('relative/path')`},
		{"url parts", `url('https://[::1]:8443/p').getHostname() == '::1' && url('https://[::1]:8443/p').getPort() == '8443' && url('https://a.b/c').getHost() == 'a.b'`},
		{"url path and query", `url('https://a/x%20y?k=1&k=2').getEscapedPath() == '/x%20y' && url('https://a/?k=1&k=2').getQuery()['k'] == ['1', '2']`},
		{"url from a field", `url('https://' + self.s + '/').getHost() == 'ABC-def'`},
		// upstream's regex library
		{"find", `self.s.find('[a-z]+') == 'def' && self.s.find('[0-9]+') == ''`},
		{"findAll", `'a1b22c333'.findAll('[0-9]+') == ['1', '22', '333'] && 'a1b22c333'.findAll('[0-9]+', 2) == ['1', '22']`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := mustCompile(t, `{"type":"object","properties":{
				"s":{"type":"string","maxLength":10},
				"l":{"type":"array","maxItems":10,"items":{"type":"integer"}},
				"names":{"type":"array","maxItems":10,"x-kubernetes-list-type":"set","items":{"type":"string","maxLength":10}}},
				"x-kubernetes-validations":[{"rule":`+quote(c.rule)+`}]}`, Options{})
			if errs := validate(t, v, `{"s":"ABC-def","l":[4,3,1,3],"names":["a","b"]}`, ""); len(errs) != 0 {
				t.Fatalf("%v", errStrings(errs))
			}
		})
	}
}

// TestLibraryOnDynamicValues checks that the library's functions, called
// on dyn values of the wrong type, fail the rule instead of panicking.
func TestLibraryOnDynamicValues(t *testing.T) {
	cases := []string{
		`self.x.find('a') == ''`,
		`self.x.findAll('a', 1).size() == 0`,
		`'a'.find(self.x) == ''`,
		`self.x.isSorted()`,
		`self.x.sum() == 0`,
		`self.x.min() == 0`,
		`self.x.indexOf(1) == 0`,
		`quantity(self.x).sign() == 0`,
		`quantity('1.5').asInteger() == 1`,
		`quantity('a') == quantity('1')`,
		`url('no scheme').getScheme() == ''`,
		`self.u.a.sum() == 0`,
		`self.u.a.isSorted()`,
		`self.u.a.max() == 0`,
	}
	for _, rule := range cases {
		t.Run(rule, func(t *testing.T) {
			v := mustCompile(t, `{"type":"object","properties":{"x":{"x-kubernetes-int-or-string":true},
				"u":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
				"x-kubernetes-validations":[{"rule":`+quote(rule)+`}]}`, Options{})
			errs := validate(t, v, `{"x":5,"u":{"a":[1,"b",2.5]}}`, "")
			if len(errs) != 1 {
				t.Fatalf("got %v, want the rule to fail", errStrings(errs))
			}
		})
	}
}
