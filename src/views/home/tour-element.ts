/** Help focuses the welcome tour by this id once it has reopened it. */
export const TOUR_ELEMENT_ID = 'welcome-tour'
