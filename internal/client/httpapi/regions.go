package httpapi

import "strings"

// Region is a regional deployment of the service: its name and its service and auth
// addresses. An empty address means that none is known, so the caller must be configured
// with an explicit base URL and auth URL.
type Region struct {
	// Name is the region's identifier, such as "us".
	Name string
	// BaseURL is the region's service address, or "" when unknown.
	BaseURL string
	// AuthURL is the region's JWT service address, or "" when unknown.
	AuthURL string
}

// DefaultRegion is the region used when none is configured.
const DefaultRegion = "us"

// Regions returns the region table: the one place that knows regional addresses. The
// service description names the addresses only as placeholders (SERVICE.md) ({base_url} for the US and
// {base_url_gb} for GB), so both entries carry empty URLs until real addresses are known.
// The result is a fresh slice that the caller may modify.
func Regions() []Region {
	return []Region{
		{Name: "us", BaseURL: "", AuthURL: ""},
		{Name: "gb", BaseURL: "", AuthURL: ""},
	}
}

// RegionNames returns the names of the known regions, in table order.
func RegionNames() []string {
	regions := Regions()
	names := make([]string, 0, len(regions))
	for _, r := range regions {
		names = append(names, r.Name)
	}
	return names
}

// LookupRegion finds a region by name, ignoring case and surrounding spaces.
func LookupRegion(name string) (Region, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, r := range Regions() {
		if r.Name == name {
			return r, true
		}
	}
	return Region{}, false
}
