"""The scoreboards: `board` builds the five roads and the ask road, `render` draws them."""
