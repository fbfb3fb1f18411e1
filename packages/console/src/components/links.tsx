import { forwardRef } from 'react';
import { Anchor, Button, NavLink, type AnchorProps, type ButtonProps, type NavLinkProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';

// Mantine components as router links, so `to` and `params` stay typed (Mantine's `component={Link}` loses the types).
const AnchorBase = forwardRef<HTMLAnchorElement, AnchorProps & React.AnchorHTMLAttributes<HTMLAnchorElement>>((props, ref) => <Anchor ref={ref} {...props} />);
const ButtonBase = forwardRef<HTMLAnchorElement, ButtonProps & React.AnchorHTMLAttributes<HTMLAnchorElement>>((props, ref) => <Button component="a" ref={ref} {...props} />);
const NavLinkBase = forwardRef<HTMLAnchorElement, NavLinkProps & React.AnchorHTMLAttributes<HTMLAnchorElement>>((props, ref) => <NavLink component="a" ref={ref} {...props} />);

export const AnchorLink = createLink(AnchorBase);
export const ButtonLink = createLink(ButtonBase);
export const NavLinkLink = createLink(NavLinkBase);
